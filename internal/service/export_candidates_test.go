package service

// ForgetCandidates drops what this process holds of root's candidates, as
// a new process would start: candidates are then read from .axiom/state
// and recompiled from their base snapshot and files.
func ForgetCandidates(root string) { candidateStates.Delete(root) }
