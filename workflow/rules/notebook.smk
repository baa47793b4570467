# The notebooks (notebooks/*.ipynb) executed and rendered to HTML with nbconvert, so
# that a reader without Jupyter can read them beside the report:
# results/notebooks/<name>.html, its maths drawn at build time (no script from the
# network: the page reads offline). One job renders them all; it reruns when a notebook
# changes, or the code of its script or of the modules the notebooks' cells import. A
# copy of the workflow without notebooks/ has no such job.

from pathlib import Path

NOTEBOOKS = sorted(p.stem for p in Path("notebooks").glob("*.ipynb"))

if NOTEBOOKS:

    rule notebook_html:
        input:
            expand("notebooks/{notebook}.ipynb", notebook=NOTEBOOKS),
        output:
            expand(f"{RESULTS}/notebooks/{{notebook}}.html", notebook=NOTEBOOKS),
        params:
            # the modules the notebooks import run in the job too
            code=code_of(
                "notebook_html.py", follow=expand("notebooks/{notebook}.ipynb", notebook=NOTEBOOKS)
            ),
            timeout=600,
        log:
            f"{LOGS}/notebook_html.log",
        benchmark:
            f"{LOGS}/notebook_html.benchmark.tsv"
        conda:
            "../envs/esize.yaml"
        script:
            "../scripts/notebook_html.py"

    register_targets("notebook_html")
