# The two commands of the README:
#   make run    the main job: seeds -> build -> tests on an embedded Spark, with a summary
#   make test   the whole test suite (pytest): unit, dbt, e2e, Thrift and the lint (ruff, sqlfluff)
# Both create .venv and install the pinned dependencies (pyproject.toml, and with Maven the
# table formats' jars of launcher/table_format_jars.pom.xml) first.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# test files run side by side (pytest-xdist; a file's tests stay together, in order), the
# slowest first (tests/conftest.py)
TEST_WORKERS ?= 2
POM := launcher/table_format_jars.pom.xml
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml $(POM) | cksum | cut -d' ' -f1)

.PHONY: setup run test lint unit serve clean

setup: $(STAMP)

$(STAMP): pyproject.toml $(POM)
	@scripts/check_prerequisites.sh $(PYTHON) --setup
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev]'
	# the installed modules' bytecode, compiled once here on every core (pip's own compile,
	# one file at a time, took 19 of its 33 s). Where PYTHONDONTWRITEBYTECODE is set (the
	# environment of this project's machines sets it), Python otherwise compiles every module
	# it imports in every process (each run, dbt command, test subprocess and Spark Python
	# worker) and keeps none: an idle `make run` spent 3.3 of its 24 s of Python on that
	$(BIN)/python -m compileall -q -j 0 $$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))') > /dev/null
	# the Delta Lake and Iceberg jars, from Maven Central into .venv/share/cdcflow/jars
	$(BIN)/cdcflow jars --install > /dev/null
	# the class-data archive Spark sessions start from (launcher/class_archive.py)
	$(BIN)/cdcflow class-archive
	rm -f $(VENV)/.installed-*
	touch $@

run: setup
	@scripts/check_prerequisites.sh $(PYTHON)
	$(BIN)/cdcflow run

test: setup
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder

# the lint alone (tests/lint: ruff; sqlfluff over the SQL dbt compiles)
lint: setup
	$(BIN)/python -m pytest tests/lint

unit: setup
	$(BIN)/python -m pytest tests/unit

serve: setup
	$(BIN)/cdcflow serve

clean:
	rm -rf .cdcflow target logs spark-warehouse metastore_db derby.log
