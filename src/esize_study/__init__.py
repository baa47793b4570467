"""The reproduction study of Kalibera & Jones (the paper's evaluation), apart from the library."""
