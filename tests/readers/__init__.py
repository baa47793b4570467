"""Tests of the readers (esize.readers), one module per harness."""
