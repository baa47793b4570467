"""``python -m esize_study.analysis check-config FILE...`` (:mod:`.check`)."""

from .check import main

raise SystemExit(main())
