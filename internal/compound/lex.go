package compound

import "strings"

// tokKind tells tokens apart where the grammar needs it; most of a body's
// text is only carried, never read.
type tokKind int

const (
	tokWord   tokKind = iota // unquoted identifier, keyword or number
	tokQuoted                // `identifier`
	tokString                // 'text' or "text"
	tokVar                   // @user or @@system variable
	tokPunct                 // any other single character
)

type token struct {
	kind       tokKind
	text       string
	start, end int
}

// is says whether t is the unquoted keyword kw (upper case).
func (t token) is(kw string) bool {
	return t.kind == tokWord && strings.EqualFold(t.text, kw)
}

// name is t read as an identifier: a word as written, a quoted one
// without its quotes.
func (t token) name() string {
	if t.kind == tokQuoted {
		return unquote(t.text)
	}
	return t.text
}

// lex splits src into tokens, leaving out spaces and comments. The markers
// of a versioned comment (/*!80000 ... */) are dropped and what they
// enclose is read, as the server reads it.
func lex(src string) []token {
	var out []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#' || (c == '-' && strings.HasPrefix(src[i:], "--") && (i+2 == len(src) || isSpace(src[i+2]))):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*!"):
			i += 3
			for i < len(src) && src[i] >= '0' && src[i] <= '9' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			if j := strings.Index(src[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(src)
			}
		case strings.HasPrefix(src[i:], "*/"):
			i += 2 // the end of a versioned comment
		case c == '\'' || c == '"':
			j := quotedEnd(src, i)
			out = append(out, token{kind: tokString, text: src[i:j], start: i, end: j})
			i = j
		case c == '`':
			j := quotedEnd(src, i)
			out = append(out, token{kind: tokQuoted, text: src[i:j], start: i, end: j})
			i = j
		case c == '@':
			j := i + 1
			if j < len(src) && src[j] == '@' {
				j++
			}
			if j < len(src) && (src[j] == '\'' || src[j] == '"' || src[j] == '`') {
				j = quotedEnd(src, j)
			} else {
				for j < len(src) && (isWordByte(src[j]) || src[j] == '.') {
					j++
				}
			}
			out = append(out, token{kind: tokVar, text: src[i:j], start: i, end: j})
			i = j
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			out = append(out, token{kind: tokWord, text: src[i:j], start: i, end: j})
			i = j
		default:
			out = append(out, token{kind: tokPunct, text: src[i : i+1], start: i, end: i + 1})
			i++
		}
	}
	return out
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// isWordByte is a byte of an unquoted identifier or number (any byte of a
// multi-byte character counts, as the server allows them in names).
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 ||
		(c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
}

// quotedEnd is the index just past the quoted text that starts at src[i];
// a doubled quote and, outside backticks, a backslash escape.
func quotedEnd(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch {
		case src[j] == '\\' && q != '`':
			j++
		case src[j] == q && j+1 < len(src) && src[j+1] == q:
			j++
		case src[j] == q:
			return j + 1
		}
	}
	return len(src)
}

// unquote is quoted text without its quotes, doubled quotes and (outside
// backticks) backslash escapes undone.
func unquote(s string) string {
	if len(s) < 2 {
		return s
	}
	q := s[0]
	body := s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && q != '`' && i+1 < len(body):
			i++
			b.WriteByte(unescape(body[i]))
		case c == q && i+1 < len(body) && body[i+1] == q:
			i++
			b.WriteByte(q)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func unescape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case '0':
		return 0
	case 'Z':
		return 26
	case 'b':
		return '\b'
	}
	return c
}
