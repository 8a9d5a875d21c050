package sqlext

import "testing"

// TestLoopRunsKeptPlans: the INSERT of a 50-step loop, and a SET of a
// DECIMAL, are planned once and their plans run at the other 49 steps;
// an UPDATE whose variable is in its WHERE is planned at every step.
func TestLoopRunsKeptPlans(t *testing.T) {
	_, _, run := openInternal(t)
	run("CREATE DATABASE lp")
	run("CREATE TABLE lp.t (id INT PRIMARY KEY, v INT)")
	run("CREATE PROCEDURE lp.fill(IN n INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO SET i = i + 1; INSERT INTO lp.t VALUES (i, i * 2); END WHILE; END")
	run("CREATE PROCEDURE lp.bump(IN n INT) BEGIN DECLARE i INT DEFAULT 0; WHILE i < n DO SET i = i + 1; UPDATE lp.t SET v = v + 1 WHERE id = i; END WHILE; END")
	before := keptPlanRuns.Load()
	run("CALL lp.fill(50)")
	if got := keptPlanRuns.Load() - before; got != 49 {
		t.Errorf("kept plan runs of a 50-step INSERT loop = %d, want 49", got)
	}
	run("CREATE PROCEDURE lp.total(IN n INT) BEGIN DECLARE i INT DEFAULT 0; DECLARE d DECIMAL(10,2) DEFAULT 0; WHILE i < n DO SET i = i + 1; SET d = d + 0.25; END WHILE; END")
	before = keptPlanRuns.Load()
	run("CALL lp.total(50)")
	if got := keptPlanRuns.Load() - before; got != 49 {
		t.Errorf("kept plan runs of a 50-step DECIMAL SET = %d, want 49", got)
	}
	before = keptPlanRuns.Load()
	run("CALL lp.bump(50)")
	if got := keptPlanRuns.Load() - before; got != 0 {
		t.Errorf("kept plan runs of an UPDATE reading its variable in WHERE = %d, want 0", got)
	}
}
