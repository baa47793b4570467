"""The reproduction study's code that ``make analyse`` uses, imported here only.

When the study's modules move, this is the one file to re-point:

* :mod:`esize_study.falsealarm.simulate`: the false-alarm engine (``bench_stats``,
  ``CellSpec``, ``simulate_cells``), and :func:`esize_study.estimate.rates.rates_at`,
  for false alarms on a dataset's pool;
* :mod:`esize_study.knowneffect.simulate` (``KnownEffectCell``, ``simulate``) and
  :mod:`esize_study.knowneffect.records` (``records_to_frame``, ``coverage_rows``,
  ``verdict_rows``): the known-effect experiment, for the coverage and power of a
  known ratio;
* :func:`esize_study.engine.seeds.bench_id`: the stable seed key of a name;
* :mod:`esize_study.datasets.config` (``config_problem``: schema and names;
  ``load_config_file``, ``merge_config``, ``SCHEMA``, and ``_locate``, ``_lookup``,
  which name the file and line of a key) and :mod:`esize_study.datasets.settings`
  (``_dotted``, ``_MISSING``): the one-line messages of ``check-config``;
* :func:`esize_study.datasets.schema.entry_with_defaults` and
  :func:`~esize_study.datasets.schema.section_with_defaults`: the schema's defaults of
  a dataset entry and of the ``analysis`` section (their one home);
* :func:`esize_study.datasets.files.jsonable`: the pipeline's one JSON cleaner, and
  ``dfiles`` (:mod:`esize_study.datasets.files`): its one JSON reader and atomic writer
  (``read_json``, ``atomic_write_text``: one line naming a damaged or unwritable file).

Nothing of the study imports :mod:`esize_study.analysis` (a later stage,
``tests/study/test_layering.py``), so the code hashes of the reproduction's rules
(:mod:`esize_study.artifact.codehash`) do not follow it.
"""

from esize_study.datasets import config as dconfig
from esize_study.datasets import files as dfiles
from esize_study.datasets import settings as dsettings
from esize_study.datasets.files import jsonable
from esize_study.datasets.schema import entry_with_defaults, section_with_defaults
from esize_study.engine.seeds import bench_id
from esize_study.estimate.rates import rates_at
from esize_study.falsealarm import simulate as fa
from esize_study.knowneffect import records as ke_records
from esize_study.knowneffect import simulate as ke

__all__ = ["dconfig", "dfiles", "dsettings", "jsonable", "entry_with_defaults",
           "section_with_defaults", "bench_id", "rates_at", "fa", "ke", "ke_records",
           "STUDY_IMPORTS"]

#: The modules above, by name.
STUDY_IMPORTS = ("esize_study.datasets.config", "esize_study.datasets.settings",
                 "esize_study.datasets.files", "esize_study.datasets.schema",
                 "esize_study.engine.seeds", "esize_study.estimate.rates",
                 "esize_study.falsealarm.simulate", "esize_study.knowneffect.simulate",
                 "esize_study.knowneffect.records")
