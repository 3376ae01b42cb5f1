//go:build race

package main

// raceEnabled builds the service binary of the process tests with the race
// detector when the tests themselves run with it.
const raceEnabled = true
