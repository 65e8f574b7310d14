#!/bin/sh
# mkman.sh FRESHET OUTDIR VERSION - the man pages, from the same text as
# --help: freshet.1 from `freshet --help`, freshet-CMD.1 from
# `freshet help CMD` for each command it lists. The help's layout is the
# contract: a "usage:" block, paragraphs, then sections ("options:",
# "Examples:", ...) whose entries start with two blanks and a name.
set -eu
F=$1
OUT=$2
VER=$3
mkdir -p "$OUT"

# page NAME TITLE: roff on stdout from help text on stdin.
page() {
	awk -v name="$1" -v title="$2" -v ver="$VER" '
	function esc(s) { gsub(/\\/, "\\e", s); gsub(/^\./, "\\\\\\&.", s); gsub(/^'\''/, "\\\\\\&'\''", s); gsub(/-/, "\\-", s); return s }
	BEGIN {
		printf ".TH %s 1 \"\" \"freshet %s\" \"freshet manual\"\n", toupper(name), ver
		printf ".SH NAME\n%s \\- %s\n", esc(name), esc(title)
		state = "usage"
	}
	state == "usage" && /^usage: / { sub(/^usage: /, ""); print ".SH SYNOPSIS\n.nf"; print esc($0); next }
	state == "usage" && /^ +/ && !/^$/ { sub(/^ +/, "    "); print esc($0); next }
	state == "usage" && /^$/ { print ".fi\n.SH DESCRIPTION"; state = "text"; next }
	/^[A-Za-z][A-Za-z ()-]*:$/ { sub(/:$/, ""); printf ".SH %s\n", toupper($0); state = "list"; next }
	state == "list" && /^  [^ ]/ {
		line = $0; sub(/^  /, "", line)
		# "  --opt ARG      text": the term, then the text after 2+ blanks
		if (match(line, /   */) && RSTART > 1 && RSTART + RLENGTH <= length(line)) {
			print ".TP"; print esc(substr(line, 1, RSTART - 1)); print esc(substr(line, RSTART + RLENGTH))
		} else { print ".TP"; print esc(line) }
		next
	}
	state == "list" && /^   +/ { sub(/^ +/, ""); print esc($0); next }
	/^$/ { print ".PP"; next }
	{ print esc($0) }
	END { if (state == "usage") print ".fi" }'
}

"$F" --help | page freshet "an incremental crawler for fresh content" >"$OUT/freshet.1"
"$F" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }' |
	while read -r cmd; do
		title=$("$F" --help | awk -v c="$cmd" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
		"$F" help "$cmd" | page "freshet-$cmd" "$title" >"$OUT/freshet-$cmd.1"
	done
