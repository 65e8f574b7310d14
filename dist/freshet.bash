# bash completion for freshet: commands, and each command's options as its
# own --help lists them (so completion never drifts from the program).
_freshet_commands() {
	freshet --help 2>/dev/null |
		awk '/^commands:$/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

_freshet() {
	local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]:-}
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(_freshet_commands) help --help --version" -- "$cur"))
	elif [ "$cmd" = help ] && [ "$COMP_CWORD" -eq 2 ]; then
		COMPREPLY=($(compgen -W "$(_freshet_commands)" -- "$cur"))
	elif [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(freshet help "$cmd" 2>/dev/null |
			grep -oE -- '--[a-z][a-z0-9-]*' | sort -u)" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}
complete -o filenames -F _freshet freshet
