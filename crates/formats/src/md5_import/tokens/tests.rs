//! The tokenizer's rules, each on a line of text small enough to check by eye.

use super::*;

#[test]
fn tokens_split_on_whitespace_marks_quotes_and_comments() {
    let text = "MD5Version 10 // id's\r\n\"f:\\md5 dir\\a b.tga\"\t-1 (0.5 -2e1)//x\n{}";
    let mut t = Tokens::new(text);
    let mut all = Vec::new();
    while let Some(token) = t.next().unwrap() {
        all.push((token, t.token_line()));
    }
    let expected = [
        (Token::Word("MD5Version"), 1),
        (Token::Word("10"), 1),
        (Token::Quoted("f:\\md5 dir\\a b.tga"), 2),
        (Token::Word("-1"), 2),
        (Token::Mark(b'('), 2),
        (Token::Word("0.5"), 2),
        (Token::Word("-2e1"), 2),
        (Token::Mark(b')'), 2),
        (Token::Mark(b'{'), 3),
        (Token::Mark(b'}'), 3),
    ];
    assert_eq!(all, expected);
}

#[test]
fn readers_say_what_they_expected_and_where() {
    let mut t = Tokens::new("numverts x\n\"open\nfoo");
    let e = t.count("numverts", 10).unwrap_err().to_string();
    assert_eq!(e, "line 1: expected a whole number (the count after numverts), found \"x\"");
    let e = t.quoted("a name").unwrap_err().to_string();
    assert_eq!(e, "line 2: a quote opens a name that is not closed on its line");

    let mut t = Tokens::new("( 1 nan 3 )");
    let e = t.triple("a position").unwrap_err().to_string();
    assert_eq!(e, "line 1: a position is \"nan\", not a finite number");
    let mut t = Tokens::new("( 1 2");
    assert!(t.triple("a position").unwrap_err().to_string().contains("the file ends where"));
    let mut t = Tokens::new("5 -1");
    assert_eq!(t.index("a joint", 5).unwrap_err().to_string(), "line 1: a joint is 5, outside 0 to 4");
    assert!(t.index("a joint", 5).is_err());
}

#[test]
fn a_count_the_rest_of_the_text_cannot_hold_is_refused() {
    // 3 things of at least 4 bytes need 12; "vert ..." leaves fewer.
    let mut t = Tokens::new("numverts 3 vert 0");
    let e = t.count("numverts", 4).unwrap_err().to_string();
    assert!(e.contains("numverts says 3, which needs at least 12 more bytes"), "{e}");
    let mut t = Tokens::new("numverts 4000000000000000000 x");
    assert!(t.count("numverts", 1).is_err());
    let mut t = Tokens::new("numverts -2");
    assert!(t.count("numverts", 1).unwrap_err().to_string().contains("cannot be negative"));
    let mut t = Tokens::new("numverts 2 abcdefgh");
    assert_eq!(t.count("numverts", 4).unwrap(), 2);
}
