#!/usr/bin/env bash
# Lint: ruff over Python; sqlfluff over the SQL that models, macros and data
# tests compile to (see .sqlfluff). Run from the project root with the venv's
# tools on PATH (make lint does both).
set -euo pipefail
cd "$(dirname "$0")/.."
state_dir=.cdcflow/lint
ruff check .
ruff format --check .
rm -rf "$state_dir/target/compiled"
# unit tests are excluded: their compiled SQL is dbt's fixture scaffolding; the
# integration tests' project adds the decoder proofs (its models are the samples')
cdcflow dbt --state-dir "$state_dir" compile --exclude "test_type:unit" --quiet
python -c "from pathlib import Path; from testkit.project import install_packages; install_packages(Path('integration_tests'))"
cdcflow dbt --state-dir "$state_dir" --project-dir integration_tests compile --select "test_type:singular" --quiet
sqlfluff lint "$state_dir/target/compiled" --processes 2
