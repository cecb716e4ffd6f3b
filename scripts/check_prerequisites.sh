#!/usr/bin/env bash
# Fail early, with what to install, when the machine lacks what Spark needs.
set -euo pipefail
# --setup: also what `make setup` needs once (Maven, for the table formats' jars)
python_bin="${1:-python3}"
if ! command -v "$python_bin" >/dev/null 2>&1; then
    echo "cdcflow: $python_bin not found. Install Python 3.11 (e.g. sudo apt-get install python3.11 python3.11-venv)." >&2
    exit 2
fi
if ! "$python_bin" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 13) else 1)'; then
    echo "cdcflow: needs Python 3.11 or 3.12; $python_bin is $("$python_bin" --version 2>&1). Set PYTHON=/path/to/python3.11." >&2
    exit 2
fi
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if ! command -v "$java_bin" >/dev/null 2>&1; then
    echo "cdcflow: Spark needs Java 17 (or 21) and no 'java' was found on PATH or in JAVA_HOME." >&2
    echo "         Install it, e.g.: sudo apt-get install openjdk-17-jre-headless" >&2
    exit 2
fi
version=$("$java_bin" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
if [ -z "$version" ] || [ "$version" -lt 17 ]; then
    echo "cdcflow: Spark 4 needs Java 17 or newer; found: $("$java_bin" -version 2>&1 | head -n 1)." >&2
    echo "         Install it, e.g.: sudo apt-get install openjdk-17-jre-headless" >&2
    exit 2
fi
if [ "${2:-}" = "--setup" ] && ! command -v mvn >/dev/null 2>&1; then
    echo "cdcflow: Maven (mvn) fetches the Delta Lake and Iceberg jars from Maven Central once and was not found." >&2
    echo "         Install it, e.g.: sudo apt-get install maven" >&2
    exit 2
fi
