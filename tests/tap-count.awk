# Count one suite's TAP output for tests/run-all.sh. Prints
# "PASSED FAILED SKIPPED" on the first line, then one line per problem
# (a failed test, a TODO, a plan that disagrees with the results).
#
# A suite may be several TAP streams in a row (a guest run.sh runs one
# script per suite, each with its own numbering and its own plan, leading
# or trailing): the plans "1..N" of all of them must add up to the number
# of "ok"/"not ok" lines. A suite that stops halfway, after a leading plan
# or before its trailing one, breaks that sum and fails. "1..0 # SKIP why"
# is a whole suite skipped. A "# TODO" test is not a pass.
/^(not )?ok / {
	tests++
	if ($0 ~ /^not ok /) {
		failed++
		problems[++np] = $0
	} else if ($0 ~ /#[ \t]*TODO/) {
		failed++
		problems[++np] = $0 " (a TODO is not a pass)"
	} else if ($0 ~ /#[ \t]*SKIP/) {
		skipped++
	} else {
		passed++
	}
	next
}
/^1\.\.[0-9]+/ {
	plans++
	n = substr($1, 4) + 0
	planned += n
	if (n == 0 && $0 ~ /#[ \t]*SKIP/)
		skipped++
}
END {
	if (plans == 0) {
		failed++
		problems[++np] = "no TAP plan (1..N): the suite did not say how many tests it runs"
	} else if (planned != tests) {
		failed++
		problems[++np] = "plans add up to " planned " tests, " tests " ran: a suite stopped halfway or miscounted"
	}
	printf "%d %d %d\n", passed, failed, skipped
	for (i = 1; i <= np; i++)
		print problems[i]
}
