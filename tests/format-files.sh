#!/bin/sh
# The C sources held to the committed .clang-format (kernel style).
cd "$(dirname "$0")/.." && git ls-files --cached --others --exclude-standard -- \
	'*.c' '*.h' | grep -v '^build/'
