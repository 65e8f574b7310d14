# install.sh - `cmake --install` into a scratch prefix: the program, a man
# page for freshet and for every command its --help lists (well-formed roff
# when groff is there to say), the bash and zsh completions (bash's driven
# the way bash drives it: commands, and a command's options from its own
# --help), and the systemd unit naming the installed program.
. "$(dirname "$0")/lib.sh"

BUILD=$(dirname "$FRESHET")
P=$WORK/root
expect_exit 0 cmake --install "$BUILD" --prefix "$P"
check "the program" test -x "$P/bin/freshet"
expect_exit 0 "$P/bin/freshet" --version
cmds=$("$P/bin/freshet" --help | awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
n=$(echo "$cmds" | wc -w)
check "the help lists the commands" test "$n" -ge 10
check "freshet.1" test -s "$P/share/man/man1/freshet.1"
for c in $cmds; do
	check "freshet-$c.1" test -s "$P/share/man/man1/freshet-$c.1"
done
check "run's page lists --listen among its options" grep -q -- '\\-\\-listen' "$P/share/man/man1/freshet-run.1"
if command -v groff >/dev/null; then
	for f in "$P"/share/man/man1/*.1; do
		groff -man -Tutf8 -z "$f" 2>"$WORK/groff.err"
		check "$(basename "$f") is roff groff reads without error" not grep -q -i error "$WORK/groff.err"
	done
else
	e2e_say "groff not installed: the pages' roff not checked"
fi

# bash completion, as bash calls it.
check "bash completion" test -s "$P/share/bash-completion/completions/freshet"
cat >"$WORK/comp.sh" <<SH
PATH="$P/bin:\$PATH"
. "$P/share/bash-completion/completions/freshet"
COMP_WORDS=(freshet si); COMP_CWORD=1; _freshet; echo "1:\${COMPREPLY[*]}"
COMP_WORDS=(freshet run --li); COMP_CWORD=2; _freshet; echo "2:\${COMPREPLY[*]}"
COMP_WORDS=(freshet help ite); COMP_CWORD=2; _freshet; echo "3:\${COMPREPLY[*]}"
SH
expect_exit 0 bash "$WORK/comp.sh"
expect_stdout_matches '^1:simulate$'
expect_stdout_matches '^2:.*--listen'
expect_stdout_matches '^2:.*--listen-token-file'
expect_stdout_matches '^3:items$'
check "zsh completion" grep -q '^#compdef freshet' "$P/share/zsh/vendor-completions/_freshet"

# The unit runs the installed program.
U=$P/lib/systemd/system/freshet.service
check "systemd unit" test -s "$U"
check "the unit's ExecStart is the installed program" grep -q "^ExecStart=$P/bin/freshet run " "$U"
check "the unit is hardened" grep -q '^DynamicUser=yes' "$U"
if command -v systemd-analyze >/dev/null; then
	expect_exit 0 systemd-analyze verify --man=no "$U"
fi
finish
