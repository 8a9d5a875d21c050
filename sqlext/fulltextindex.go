package sqlext

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"

	"github.com/sqlearn/sqlearn/storage"
)

// The inverted file of a FULLTEXT index, and the searches that read it.
//
// A FULLTEXT index's words are kept in memory, not in storage: each
// indexed word with the documents (rows) that hold it and how often,
// built from the table's committed rows the first time a statement
// searches the index, and made again when the table has changed since
// (its storage mark), reading anew only the rows whose text changed. A
// search reads the documents of its words from it, ranks them
// (fulltextsearch.go), and keeps each matching row and its relevance.
// Then:
//
//   - a SELECT whose WHERE holds the MATCH (alone or ANDed) over a table
//     read whole reads only those rows (fulltextReadRule), as MySQL
//     reads a full-text index: as in InnoDB, not the rows its
//     transaction wrote;
//   - the MATCH of a row finds its relevance by the row's text, and
//     ranks a text it has not seen (a row the transaction wrote, or any
//     other row the search did not match) by reading its words.
//
// As in InnoDB, the counts are those of committed rows.

// ftPosting is one document's count of a word.
type ftPosting struct {
	doc int32
	tf  int32
}

// ftInverted is the inverted file of one index at one mark of its table.
type ftInverted struct {
	mark storage.WriteMark
	ids  []string // each document's row identity
	// words numbers the words, -1 for a word met and not kept;
	// postings are each word's documents, by number.
	words    map[string]int32
	postings [][]ftPosting
	vocab    []string // the words, sorted, for prefix terms
	cols     []int    // the index's columns in the table
	// forward is each document's words and counts, and hashes a hash of
	// its text: the next file of the table takes the words of a document
	// whose text has not changed from here rather than reading them
	// again. docOf, each identity's document, is made when that file
	// first finds its rows out of this one's order.
	forward [][]ftTerm
	hashes  []uint64
	docOf   map[string]int32
	seed    maphash.Seed
}

// docNamed is the document of row identity id, or -1; after is where
// the reader's last match was, the first place it looks.
func (f *ftInverted) docNamed(id string, after int) int {
	if after < len(f.ids) && f.ids[after] == id {
		return after
	}
	if f.docOf == nil {
		f.docOf = make(map[string]int32, len(f.ids))
		for d, x := range f.ids {
			f.docOf[x] = int32(d)
		}
	}
	if d, ok := f.docOf[id]; ok {
		return int(d)
	}
	return -1
}

// ftTerm is a word of a document, by number, and its count there.
type ftTerm struct{ word, tf int32 }

// posting is the documents of word w.
func (f *ftInverted) posting(w string) []ftPosting {
	if id, ok := f.words[w]; ok && id >= 0 {
		return f.postings[id]
	}
	return nil
}

// ftInvertedCache keeps the inverted files of recently searched indexes.
type ftInvertedCache struct {
	mu    sync.Mutex
	files map[string]*ftInverted
	// building serialises the builds of one index, so that concurrent
	// statements read the table once.
	building sync.Map // key -> *sync.Mutex
}

// ftInvertedCacheSize bounds the inverted files kept.
const ftInvertedCacheSize = 32

// fulltextInverted is the inverted file of the index of a table as its
// committed rows are now.
func (p *Provider) fulltextInverted(ctx *sql.Context, db, table, index string) (*ftInverted, error) {
	key := db + "\x00" + table + "\x00" + strings.ToLower(index)
	c := &p.ftFiles
	cached := func() *ftInverted {
		mark := p.store.Writes(db, table)
		c.mu.Lock()
		defer c.mu.Unlock()
		if f := c.files[key]; f != nil && f.mark == mark {
			return f
		}
		return nil
	}
	if f := cached(); f != nil {
		return f, nil
	}
	m, _ := c.building.LoadOrStore(key, &sync.Mutex{})
	m.(*sync.Mutex).Lock()
	defer m.(*sync.Mutex).Unlock()
	if f := cached(); f != nil {
		return f, nil
	}
	c.mu.Lock()
	prev := c.files[key]
	c.mu.Unlock()
	f, err := p.buildInverted(ctx, db, table, index, prev)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.files == nil || len(c.files) >= ftInvertedCacheSize {
		c.files = map[string]*ftInverted{}
	}
	c.files[key] = f
	c.mu.Unlock()
	return f, nil
}

// buildInverted makes the inverted file of an index from the table's
// committed rows, taking the words of each row whose text prev, the
// table's last file (or nil), already read.
func (p *Provider) buildInverted(ctx *sql.Context, db, table, index string, prev *ftInverted) (*ftInverted, error) {
	info, err := p.store.Table(db, table)
	if err != nil {
		return nil, translateStorage(err)
	}
	f := &ftInverted{words: map[string]int32{}, seed: maphash.MakeSeed()}
	for _, x := range fulltextIndexes(info.Indexes) {
		if strings.EqualFold(x.name, index) {
			for _, name := range x.cols {
				f.cols = append(f.cols, info.Schema.ColumnIndex(name))
			}
		}
	}
	if len(f.cols) == 0 || slices.Contains(f.cols, -1) {
		return nil, noFulltextIndex()
	}
	if prev != nil && slices.Equal(prev.cols, f.cols) {
		// The words keep their numbers, so that the documents taken
		// from prev keep theirs.
		f.words, f.seed = maps.Clone(prev.words), prev.seed
		f.postings = make([][]ftPosting, len(prev.postings))
		for w, list := range prev.postings {
			if len(list) > 0 {
				f.postings[w] = make([]ftPosting, 0, len(list)+len(list)/8+1)
			}
		}
	} else {
		prev = nil
	}
	var counts []int32
	if n := len(f.postings); n > 0 {
		counts = make([]int32, n)
	}
	type textColumn interface {
		IsNull(int) bool
		Value(int) string
	}
	// counts is each word's count in the document being read, by
	// number; touched the words it holds.
	var touched []int32
	next := 0 // where in prev the next row is looked for first
	var buf []byte
	count := func(w []byte) {
		if len(w) < ftMinToken {
			return // fewer bytes than the fewest characters
		}
		id, ok := f.words[string(w)]
		switch {
		case ok && id < 0:
			return
		case !ok && !ftIndexedBytes(w):
			f.words[string(w)] = -1 // a stopword, or too long: known not kept
			return
		case !ok:
			id = int32(len(f.postings))
			f.words[string(w)] = id
			f.postings = append(f.postings, nil)
			counts = append(counts, 0)
		}
		if counts[id] == 0 {
			touched = append(touched, id)
		}
		counts[id]++
	}
	f.mark, err = p.store.ScanIdentified(ctx, db, table, func(rec arrow.RecordBatch, ids []string) error {
		arrays := make([]textColumn, len(f.cols))
		for i, c := range f.cols {
			a, ok := rec.Column(c).(textColumn)
			if !ok {
				return fmt.Errorf("sqlext: full-text column %d of %s.%s is no text", c, db, table)
			}
			arrays[i] = a
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			if len(f.ids)&1023 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			doc := int32(len(f.ids))
			id := ids[i] // storage's own, which it does not change
			f.ids = append(f.ids, id)
			var sum uint64
			for _, a := range arrays {
				const prime = 0x100000001b3
				if a.IsNull(i) {
					sum = sum*prime + 1
				} else {
					v := a.Value(i)
					sum = (sum^maphash.String(f.seed, v))*prime + uint64(len(v)) + 2
				}
			}
			f.hashes = append(f.hashes, sum)
			var terms []ftTerm
			reused := false
			if prev != nil {
				if d := prev.docNamed(id, next); d >= 0 {
					next = d + 1
					if prev.hashes[d] == sum {
						terms, reused = prev.forward[d], true
					}
				}
			}
			if !reused {
				for _, a := range arrays {
					if !a.IsNull(i) {
						buf = ftScanWords(a.Value(i), buf, count)
					}
				}
				terms = make([]ftTerm, len(touched))
				for j, w := range touched {
					terms[j] = ftTerm{word: w, tf: counts[w]}
					counts[w] = 0
				}
				touched = touched[:0]
			}
			f.forward = append(f.forward, terms)
			for _, t := range terms {
				f.postings[t.word] = append(f.postings[t.word], ftPosting{doc: doc, tf: t.tf})
			}
		}
		return nil
	})
	if err != nil {
		return nil, translateStorage(err)
	}
	f.vocab = make([]string, 0, len(f.words))
	for w, id := range f.words {
		if id >= 0 {
			f.vocab = append(f.vocab, w)
		}
	}
	sort.Strings(f.vocab)
	return f, nil
}

// prefixed are the words of the file that start with prefix, in order.
func (f *ftInverted) prefixed(prefix string) []string {
	i := sort.SearchStrings(f.vocab, prefix)
	j := i
	for j < len(f.vocab) && strings.HasPrefix(f.vocab[j], prefix) {
		j++
	}
	return f.vocab[i:j]
}

// stats are the counts of q's words in the file.
func (f *ftInverted) stats(q *ftQuery) *ftStats {
	st := &ftStats{rows: int64(len(f.ids)), df: map[string]int64{}, prefixDF: map[string]int64{}}
	for _, w := range q.words {
		st.df[w] = int64(len(f.posting(w)))
	}
	for _, p := range q.prefixes {
		for _, w := range f.prefixed(p) {
			st.prefixDF[p] += int64(len(f.posting(w)))
		}
	}
	return st
}

// ftSearch is one query's search of one index, for one statement: the
// rows it matches, and each matching text's relevance.
type ftSearch struct {
	mark storage.WriteMark // the table's, when the file searched was made
	q    *ftQuery
	st   *ftStats
	t    *Table
	cols []int // the index's columns in the table
	// rows are the committed rows that match, in key order; ranks the
	// relevance of each matching text (textKey).
	rows  []sql.Row
	ids   []string
	ranks map[string]float64
	// mu guards doc and texts, with which a text not met is ranked.
	mu    sync.Mutex
	doc   *ftDoc
	texts []string
	key   []byte
}

// textKey is the key of a document's text, its columns' values.
func textKey(buf []byte, vals []any) []byte {
	buf = buf[:0]
	for i, v := range vals {
		if i > 0 {
			buf = append(buf, 0)
		}
		switch x := v.(type) {
		case nil:
			buf = append(buf, 1)
		case string:
			buf = append(buf, x...)
		default:
			buf = fmt.Append(buf, x)
		}
	}
	return buf
}

// search reads the documents of q's words in f and ranks them.
func (f *ftInverted) search(ctx *sql.Context, t *Table, q *ftQuery) (*ftSearch, error) {
	s := &ftSearch{mark: f.mark, q: q, st: f.stats(q), t: t, cols: f.cols, ranks: map[string]float64{}, doc: newFTDoc()}
	// The documents holding any of the query's words: only those can
	// match (a query of excluded words only matches none).
	candidates := map[int32]bool{}
	for _, w := range q.words {
		for _, p := range f.posting(w) {
			candidates[p.doc] = true
		}
	}
	var prefixWords [][]string
	for _, p := range q.prefixes {
		words := f.prefixed(p)
		prefixWords = append(prefixWords, words)
		for _, w := range words {
			for _, posting := range f.posting(w) {
				candidates[posting.doc] = true
			}
		}
	}
	docs := make([]int32, 0, len(candidates))
	for d := range candidates {
		docs = append(docs, d)
	}
	slices.Sort(docs)
	// Each list of postings is in document order: a document's count of
	// a word is found by halving.
	wordLists := make([][]ftPosting, len(q.words))
	for i, w := range q.words {
		wordLists[i] = f.posting(w)
	}
	// A prefix of many words has its counts gathered in one pass (the
	// first word's count in each document is the one kept).
	prefixLists := make([][][]ftPosting, len(q.prefixes))
	prefixCounts := make([]map[int32]int, len(q.prefixes))
	for i := range q.prefixes {
		if len(prefixWords[i]) > 8 {
			m := map[int32]int{}
			for _, w := range prefixWords[i] {
				for _, p := range f.posting(w) {
					if _, ok := m[p.doc]; !ok {
						m[p.doc] = int(p.tf)
					}
				}
			}
			prefixCounts[i] = m
			continue
		}
		for _, w := range prefixWords[i] { // in order: the smallest word first
			prefixLists[i] = append(prefixLists[i], f.posting(w))
		}
	}
	countIn := func(list []ftPosting, d int32) int {
		j, found := slices.BinarySearchFunc(list, d, func(p ftPosting, d int32) int { return int(p.doc - d) })
		if !found {
			return 0
		}
		return int(list[j].tf)
	}
	phrases := q.hasPhrases()
	doc := newFTDoc()
	var texts []string
	for i, d := range docs {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		clear(doc.tf)
		clear(doc.prefixTF)
		for j, w := range q.words {
			if n := countIn(wordLists[j], d); n > 0 {
				doc.tf[w] = n
			}
		}
		for j, p := range q.prefixes {
			if prefixCounts[j] != nil {
				if n := prefixCounts[j][d]; n > 0 {
					doc.prefixTF[p] = n
				}
				continue
			}
			for _, list := range prefixLists[j] {
				if n := countIn(list, d); n > 0 {
					doc.prefixTF[p] = n
					break
				}
			}
		}
		stored, ok, err := t.p.store.Get(t.info.DB, t.info.Name, f.ids[d])
		if err != nil {
			return nil, translateStorage(err)
		}
		if !ok {
			continue // deleted since the file was built
		}
		row := t.toSQL(stored)
		vals := make([]any, len(f.cols))
		for j, c := range f.cols {
			vals[j] = row[c]
		}
		if phrases {
			texts = texts[:0]
			for _, v := range vals {
				if v != nil {
					texts = append(texts, fmt.Sprint(v))
				}
			}
			doc.seq = doc.seq[:0]
			for _, s := range texts {
				ftWords(s, func(w string) { doc.seq = append(doc.seq, w) })
			}
		}
		r, matched := q.rank(s.st, doc)
		if !matched {
			continue
		}
		s.ranks[string(textKey(nil, vals))] = r
		s.rows = append(s.rows, row)
		s.ids = append(s.ids, f.ids[d])
	}
	if len(t.info.Schema.PK) > 0 {
		order := make([]int, len(s.rows))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return t.compareKeys(ctx, s.rows[a], s.rows[b]) })
		rows, ids := make([]sql.Row, len(order)), make([]string, len(order))
		for i, j := range order {
			rows[i], ids[i] = s.rows[j], s.ids[j]
		}
		s.rows, s.ids = rows, ids
	}
	return s, nil
}

// sameText says whether two versions of a row hold the same text in the
// columns cols.
func sameText(a, b sql.Row, cols []int) bool {
	for _, c := range cols {
		if a[c] != b[c] {
			return false
		}
	}
	return true
}

// rank is the relevance of a row whose indexed columns hold vals.
func (s *ftSearch) rank(ctx *sql.Context, vals []any) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = textKey(s.key, vals)
	if r, ok := s.ranks[string(s.key)]; ok {
		return r, nil
	}
	s.texts = s.texts[:0]
	for _, v := range vals {
		switch x := v.(type) {
		case nil:
		case string:
			s.texts = append(s.texts, x)
		default:
			t, _, err := types.LongText.Convert(ctx, v)
			if err != nil {
				return nil, err
			}
			if str, ok := t.(string); ok {
				s.texts = append(s.texts, str)
			}
		}
	}
	s.q.read(s.texts, s.q.hasPhrases(), s.doc)
	r, _ := s.q.rank(s.st, s.doc)
	return r, nil
}

// ftMemo keeps a session's searches for the statement it runs.
type ftMemo struct {
	mu       sync.Mutex
	pid      uint64
	searches map[string]*ftSearch
}

// fulltextSearch is the search of the statement now running for query
// in the index named, made on its first use.
func (s *Session) fulltextSearch(ctx *sql.Context, db, table, index, mode, query string) (*ftSearch, error) {
	m := &s.ftMemo
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pid != ctx.Pid() || m.searches == nil {
		m.pid, m.searches = ctx.Pid(), map[string]*ftSearch{}
	}
	key := strings.Join([]string{db, table, strings.ToLower(index), mode, query}, "\x00")
	// A CALL's statements share one query id: a search made before
	// one of them wrote the table is made again.
	if f := m.searches[key]; f != nil && f.mark == s.p.store.Writes(db, table) {
		return f, nil
	}
	q, err := parseFTQuery(mode, query)
	if err != nil {
		return nil, err
	}
	t, err := s.p.storedTableNamed(ctx, db, table)
	if err != nil {
		return nil, err
	}
	file, err := s.p.fulltextInverted(ctx, db, table, index)
	if err != nil {
		return nil, err
	}
	f, err := file.search(ctx, t, q)
	if err != nil {
		return nil, err
	}
	m.searches[key] = f
	return f, nil
}

// storedTableNamed is the stored table db.table, to read rows with.
func (p *Provider) storedTableNamed(ctx *sql.Context, db, table string) (*Table, error) {
	info, err := p.store.Table(db, table)
	if err != nil {
		return nil, translateStorage(err)
	}
	return p.newTable(ctx, info)
}

// fulltextReadRule makes a SELECT that keeps only the rows a MATCH
// matches read only those rows.
const fulltextReadRule = 9939

// fulltextReads sets each table read whole under a filter that ANDs a
// MATCH of its own FULLTEXT index to read the rows that MATCH matches.
func fulltextReads(_ *sql.Context, _ *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		child := f.Child
		alias, aliased := child.(*plan.TableAlias)
		if aliased {
			child = alias.Child
		}
		rt, ok := child.(*plan.ResolvedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		t, ok := rt.Table.(*Table)
		if !ok || t.temp || t.ftRead != nil || t.lookup != nil {
			return n, transform.SameTree, nil
		}
		var call *scalarFunc
		for _, e := range expression.SplitConjunction(f.Expression) {
			if m, ok := e.(*scalarFunc); ok && m.name == matchFunc && readsTable(m, t) {
				call = m
				break
			}
		}
		if call == nil {
			return n, transform.SameTree, nil
		}
		c := *t
		c.ftRead = call
		nrt, err := rt.WithTable(&c)
		if err != nil {
			return nil, transform.SameTree, err
		}
		var nchild sql.Node = nrt
		if aliased {
			if nchild, err = alias.WithChildren(nrt); err != nil {
				return nil, transform.SameTree, err
			}
		}
		nf, err := f.WithChildren(nchild)
		return nf, transform.NewTree, err
	})
}

// readsTable says whether a MATCH call searches table t.
func readsTable(m *scalarFunc, t *Table) bool {
	if len(m.args) < 6 {
		return false
	}
	db, ok1 := m.args[0].(*expression.Literal)
	name, ok2 := m.args[1].(*expression.Literal)
	if !ok1 || !ok2 {
		return false
	}
	d, _ := db.Value().(string)
	tn, _ := name.Value().(string)
	return strings.EqualFold(d, t.info.DB) && strings.EqualFold(tn, t.info.Name)
}

// ftPartition is the rows a MATCH matches.
type ftPartition struct {
	rows []sql.Row
}

func (ftPartition) Key() []byte { return []byte("fulltext") }

// fulltextPartitions are the rows of t's MATCH (t.ftRead): the
// committed rows it matches, each as the statement's transaction has it.
// As in InnoDB, whose full-text index takes a transaction's writes when
// it commits, a row the transaction inserted, deleted or changed the
// indexed text of is not found.
func (t *Table) fulltextPartitions(ctx *sql.Context) (sql.PartitionIter, error) {
	m := t.ftRead
	vals := make([]any, 5)
	for i := range vals {
		v, err := m.args[i].Eval(ctx, nil)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	search, err := searchOf(ctx, vals)
	if err != nil {
		return nil, err
	}
	tt := txFrom(ctx).table(t.info.DB, t.info.Name)
	var rows []sql.Row
	for i, r := range search.rows {
		if tt != nil {
			if ch, changed := tt.changes[search.ids[i]]; changed {
				if ch.row == nil {
					continue // deleted
				}
				mine := t.toSQL(ch.row)
				if !sameText(mine, r, search.cols) {
					continue
				}
				r = mine
			}
		}
		rows = append(rows, slices.Clone(r))
	}
	return sql.PartitionsToPartitionIter(ftPartition{rows: rows}), nil
}
