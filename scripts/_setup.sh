# Shared set-up for scripts/play and scripts/test: a project-local virtual environment
# installed from setup.cfg, rebuilt only when setup.cfg changes (so it is quick when set up).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "What Goes Up needs Python 3.10 or newer (found: $("$PY" --version 2>&1))." >&2
  exit 1
fi
stamp=.venv/.installed-$(cksum setup.cfg setup.py | cksum | cut -d' ' -f1)
if [ ! -f "$stamp" ]; then
  echo "Setting up .venv (first run or setup.cfg changed)..." >&2
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >&2 || true
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[test]" >&2
  rm -f .venv/.installed-*
  touch "$stamp"
fi
