# Shared set-up for scripts/play and scripts/test: a project-local virtual environment installed from
# setup.cfg, rebuilt only when setup.cfg changes (so it is quick once set up).
# Set WHATGOESUP_EXTRAS=test before sourcing to add the test tools (scripts/test does); playing installs
# only what the game needs. pip's own progress is shown, so a first start never looks stuck.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
  echo "What Goes Up needs Python 3.10 or newer (found: $("$PY" --version 2>&1))." >&2
  exit 1
fi
extras=${WHATGOESUP_EXTRAS:-}
target="."
[ -n "$extras" ] && target=".[$extras]"
stamp=.venv/.installed-$(cksum setup.cfg setup.py | cksum | cut -d' ' -f1)${extras:+-$extras}
if [ ! -f "$stamp" ]; then
  echo "Setting up .venv for ${extras:+the tests of }What Goes Up (first run, or setup.cfg changed): installing ${target}..." >&2
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/python -m pip install --disable-pip-version-check --progress-bar on --upgrade pip >&2 || true
  .venv/bin/python -m pip install --disable-pip-version-check --progress-bar on -e "$target" >&2
  # A test install also covers playing; a play install does not cover the tests.
  rm -f .venv/.installed-*
  touch "$stamp"
  [ -n "$extras" ] && touch "${stamp%-$extras}"
  echo "Set up. Next time this step is skipped." >&2
fi
