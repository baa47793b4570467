"""What the paper prints, kept as data: the first stage of the study.

``numbers``
    the numbers the paper states (Table tVariations, Table tPrecisions, the
    experiment's shape and costs): the inputs and the targets of the reproduction;
``examples``
    the tables of the worked examples (Section "For Practitioners: The New Method
    without Statistics") and the values the paper prints for them;
``statements``
    the paper's statements, each with the section label where it is made and the ids
    of the claim rows that judge it.

Nothing here is computed, and nothing here imports another part of the study.
"""
