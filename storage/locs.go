package storage

import "iter"

// locMap is where each live row of a table is, by the row's identity. A
// table whose primary key is one BIGINT-like column, whose identities
// are intID(k), keys it by k: a lookup then hashes an integer and
// compares it in place, where a string key makes it read the identity's
// bytes first, another cache miss for each row an index lookup fetches.
type locMap struct {
	ints map[int64]loc // for identities intID(k)
	strs map[string]loc
}

func newLocMap(intKeyed bool, n int) locMap {
	if intKeyed {
		return locMap{ints: make(map[int64]loc, n)}
	}
	return locMap{strs: make(map[string]loc, n)}
}

// intIDKey is the k of an identity intID(k); ok is false for any other
// string.
func intIDKey(id string) (k int64, ok bool) {
	if len(id) < 2 || id[0] != tagInt64 {
		return 0, false
	}
	var ux uint64
	var shift uint
	for i := 1; i < len(id); i++ {
		b := id[i]
		if shift >= 64 {
			return 0, false
		}
		if b < 0x80 {
			if i != len(id)-1 {
				return 0, false
			}
			ux |= uint64(b) << shift
			k = int64(ux >> 1)
			if ux&1 != 0 {
				k = ^k
			}
			return k, true
		}
		ux |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, false
}

func (m *locMap) get(id string) (loc, bool) {
	if m.ints != nil {
		k, ok := intIDKey(id)
		if !ok {
			return loc{}, false
		}
		l, ok := m.ints[k]
		return l, ok
	}
	l, ok := m.strs[id]
	return l, ok
}

// at is get for an identity known to be live.
func (m *locMap) at(id string) loc {
	l, _ := m.get(id)
	return l
}

// atInt is at for the row whose identity is intID(k), in a map keyed by
// integers.
func (m *locMap) atInt(k int64) loc { return m.ints[k] }

func (m *locMap) set(id string, l loc) {
	if m.ints != nil {
		k, ok := intIDKey(id)
		if !ok {
			panic("storage: identity " + id + " is not an integer key's")
		}
		m.ints[k] = l
		return
	}
	m.strs[id] = l
}

func (m *locMap) del(id string) {
	if m.ints != nil {
		if k, ok := intIDKey(id); ok {
			delete(m.ints, k)
		}
		return
	}
	delete(m.strs, id)
}

func (m *locMap) len() int {
	if m.ints != nil {
		return len(m.ints)
	}
	return len(m.strs)
}

// all is every row's identity and place, in no order.
func (m *locMap) all() iter.Seq2[string, loc] {
	return func(yield func(string, loc) bool) {
		if m.ints != nil {
			for k, l := range m.ints {
				if !yield(intID(k), l) {
					return
				}
			}
			return
		}
		for id, l := range m.strs {
			if !yield(id, l) {
				return
			}
		}
	}
}
