#!/usr/bin/env bash
# The man page and --help name the same options: every long option a
# subcommand's --help lists is in gcfs(1), and every option gcfs(1) documents is
# in some --help. Also checks the page renders without warnings.
# Usage: docs_man_test.sh PATH/TO/gcfs PATH/TO/gcfs.1
set -u
GCFS=$1; PAGE=$2
source "$(dirname "$0")/mount/lib.sh"
# --help: the option column of each "  -x,--name ARG   text" line.
help_options() {
    for sub in "" mount mkdisc ls cat extract verify pack diff edits; do "$GCFS" $sub --help; done |
        grep -E '^  -' | awk '{print $1}' | tr ',' '\n' | grep -oE -- '^--?[a-z][a-z-]*' | sort -u
}
# gcfs(1): the tag line after each .TP of the OPTIONS section, "\-x", "\-\-name".
page_options() {
    sed -n '/^\.SH OPTIONS/,/^\.SH FILES/p' "$PAGE" | grep -A1 '^\.TP' | grep -v -e '^\.TP' -e '^--' |
        sed 's/\\f[BIR]//g; s/\\-/-/g' | grep -oE -- '(^|[ ",])--?[a-z][a-z-]*' | sed 's/^[ ",]//' | sort -u
}
check "the page renders without warnings" bash -c "! (MANWIDTH=80 man --warnings -l '$PAGE' 2>&1 >/dev/null | grep -q .)"
check "every option of --help is in the page" bash -c "comm -23 <(echo '$(help_options)') <(echo '$(page_options)') | (! grep .)"
check "every option of the page is in --help" bash -c "comm -13 <(echo '$(help_options)') <(echo '$(page_options)') | (! grep .)"
# mkdisc --help ends its --damage line with "kinds: a, b, ..."; each is in the page.
damage_kinds() { "$GCFS" mkdisc --help | grep -oE 'kinds: [a-z, -]+' | sed 's/kinds: //' | tr -d ' ' | tr ',' '\n'; }
damage_kinds_in_page() {
    local k n=0
    for k in $(damage_kinds); do
        grep -qF "\\fB${k//-/\\-}\\fR" "$PAGE" || { echo "missing $k"; return 1; }
        n=$((n + 1))
    done
    [ $n -ge 10 ]
}
check "every damage kind of --help is in the page" damage_kinds_in_page
for sub in mount mkdisc ls cat extract verify pack diff edits; do
    check "the page documents 'gcfs $sub'" grep -q "^\.B gcfs $sub" "$PAGE"
    check "gcfs --help lists '$sub'" bash -c "'$GCFS' --help | grep -qE '^  $sub '"
done
# The README's picture is LEVEL00/preview.png of the demo disc (make demo's
# --levels 4 --seed 1), byte for byte: regenerate it when the builder changes.
readme_preview_is_the_demo_disc() {
    local work; work=$(mktemp -d)
    "$GCFS" mkdisc "$work/demo.iso" --levels 4 --seed 1 >/dev/null &&
        "$GCFS" cat "$work/demo.iso" LEVEL00/preview.png | cmp - "$(dirname "$PAGE")/demo-level00-preview.png"
    local rc=$?; rm -rf "$work"; return $rc
}
check "docs/demo-level00-preview.png is the demo disc's LEVEL00/preview.png" readme_preview_is_the_demo_disc
check "the README shows it" grep -q '](docs/demo-level00-preview.png)' "$(dirname "$PAGE")/../README.md"
# README.md's list of names is the mounted README.txt's, line for line.
readme_lists_the_catalogue() {
    local work; work=$(mktemp -d)
    "$GCFS" mkdisc "$work/demo.iso" --levels 4 --seed 1 >/dev/null &&
        "$GCFS" cat "$work/demo.iso" README.txt | awk '/^README.txt /{on=1} on && /^$/{exit} on' >"$work/txt" &&
        awk '/^<!-- catalogue:/{getline; on=1; next} on && /^```$/{exit} on' "$(dirname "$PAGE")/../README.md" >"$work/md" &&
        test -s "$work/txt" && diff "$work/txt" "$work/md"
    local rc=$?; rm -rf "$work"; return $rc
}
check "README.md's list of names is the mounted README.txt's" readme_lists_the_catalogue
finish docs
