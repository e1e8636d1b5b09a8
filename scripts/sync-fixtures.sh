#!/usr/bin/env bash
# Copies the real Layerswap answers from a reference folder into test/fixtures/layerswap, keeping
# the provenance header this repository adds to its README. Usage: scripts/sync-fixtures.sh DIR
set -euo pipefail
src="${1:?usage: scripts/sync-fixtures.sh <reference fixtures folder>}"
dst="$(dirname "$0")/../test/fixtures/layerswap"
for f in "$src"/*.json; do
  if ! cmp -s "$f" "$dst/$(basename "$f")"; then cp "$f" "$dst/"; echo "updated $(basename "$f")"; fi
done
for f in "$dst"/*.json; do
  [ -e "$src/$(basename "$f")" ] || echo "not in the reference any more: $(basename "$f")"
done
