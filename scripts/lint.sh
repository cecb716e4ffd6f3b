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
# unit tests are excluded: their compiled SQL is dbt's fixture scaffolding
cdcflow dbt --state-dir "$state_dir" compile --exclude "test_type:unit" --quiet
sqlfluff lint "$state_dir/target/compiled" --processes 2
