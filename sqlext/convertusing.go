package sqlext

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/encodings"
	"github.com/dolthub/go-mysql-server/sql/expression"
)

// CONVERT(s USING cs) is s in character set cs, each character cs has
// no code for written '?'. The engine's gave the bytes of s encoded in
// cs, where every other expression holds text as UTF-8 whatever its
// character set (and encodes it when it needs the bytes), so anything
// over it read those bytes as UTF-8: HEX(CONVERT('é' USING latin1))
// panicked (slice bounds out of range) and CHAR_LENGTH of it was an
// error. convertedText gives the text encoded in cs and read back, as
// UTF-8 holding only what cs can hold.
type convertedText struct {
	*expression.ConvertUsing
}

func (c *convertedText) Eval(ctx *sql.Context, row sql.Row) (any, error) {
	v, err := c.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	var b []byte
	switch x := v.(type) {
	case []byte:
		b = x
	case string:
		b = encodings.StringToBytes(x)
	default:
		return c.ConvertUsing.Eval(ctx, row)
	}
	enc := c.TargetCharSet.Encoder()
	back, ok := enc.Decode(enc.EncodeReplaceUnknown(b))
	if !ok {
		return c.ConvertUsing.Eval(ctx, row)
	}
	return encodings.BytesToString(back), nil
}

func (c *convertedText) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := c.ConvertUsing.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &convertedText{ConvertUsing: e.(*expression.ConvertUsing)}, nil
}
