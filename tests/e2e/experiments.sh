# experiments.sh - every patch in research/experiments names the commit whose
# tree it applies to (first line "base: <commit>") and still applies there
# (git apply --check on that tree), so the figures research/results-notebook.md
# gives for it can be made again. Needs git and the project's history (a
# clone); a tree without them skips the check, saying so.
. "$(dirname "$0")/lib.sh"

EXP=$SRC/research/experiments
command -v git >/dev/null || { e2e_say "skipped: no git"; finish; exit 0; }
git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 ||
	{ e2e_say "skipped: $SRC is not a git clone"; finish; exit 0; }
n=0
for p in "$EXP"/*.patch; do
	[ -f "$p" ] || continue
	n=$((n + 1))
	name=$(basename "$p")
	base=$(sed -n '1s/^base: \([0-9a-f]\{7,40\}\)$/\1/p' "$p")
	if [ -z "$base" ]; then
		fail "$name names its base" "first line is '$(head -n 1 "$p")', not 'base: <commit>'"
		continue
	fi
	if ! git -C "$SRC" cat-file -e "$base^{commit}" 2>/dev/null; then
		if [ "$(git -C "$SRC" rev-parse --is-shallow-repository 2>/dev/null)" = true ]; then
			e2e_say "skipped $name: base $base is not in this shallow clone"
			continue
		fi
		fail "$name's base is a commit of the history" "$base not found"
		continue
	fi
	rm -rf "$WORK/tree" && mkdir "$WORK/tree"
	git -C "$SRC" archive "$base" | tar -x -C "$WORK/tree" ||
		{ fail "$name's base tree extracted" "git archive $base failed"; continue; }
	check "$name applies to its base ${base:0:10}" \
		env GIT_CEILING_DIRECTORIES="$WORK" sh -c 'cd "$1" && git apply --check "$2"' sh "$WORK/tree" "$p"
done
check "patches found ($n)" test "$n" -gt 0
finish
