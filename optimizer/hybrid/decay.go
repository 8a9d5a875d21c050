package hybrid

import "math"

// Decay follows how fast a loop's change norm shrinks, to estimate the
// iterations left (Delta.Remaining) for the reorganisation decision.
type Decay struct {
	rate, last float64
}

// Observe records an iteration's change norm.
func (d *Decay) Observe(change float64) {
	if d.last > 0 && change > 0 {
		r := min(change/d.last, 0.999)
		if d.rate == 0 {
			d.rate = r
		} else {
			d.rate = 0.5*d.rate + 0.5*r
		}
	}
	d.last = change
}

// Remaining estimates the iterations until the change falls to target,
// at most limit (and limit while no decay has been seen).
func (d *Decay) Remaining(target float64, limit int) int {
	if d.rate > 0 && target > 0 && d.last > 0 {
		est := math.Log(target/d.last) / math.Log(d.rate)
		if est >= 0 && est < float64(limit) {
			return int(math.Ceil(est))
		}
	}
	return limit
}
