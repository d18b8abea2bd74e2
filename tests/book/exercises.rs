//! Each chapter (1 to 16) ends with exercises, and their answers are checked. The
//! chapter's last section is `## Exercises`: a numbered list of questions (`1. ...`), then the
//! answers in a block a reader opens (`<details>`, `<summary>Answers</summary>`), each starting
//! `**N.**` on a line of its own, one per question, in order.
//!
//! An answer's figures are recomputed, never copied: each answer holds a computed passage
//! (`computed.rs`: the test works its facts out again, from the library or from the formula), or a
//! `console` block (`console.rs` runs the program again and compares), or both. A number in an
//! answer's prose outside its computed passages fails, so no figure of an answer goes unchecked;
//! commands in code spans and the console blocks are not prose.

use crate::computed::{numbers, passages};
use crate::markdown::{Page, blocks, is_chapter, pages, place};

/// One answer: its number, the page's line it starts on, and its text.
pub struct Answer {
    pub number: usize,
    pub line: usize,
    pub text: String,
}

/// A chapter's exercises: each question's text, and the answers.
pub struct Exercises {
    pub questions: Vec<String>,
    pub answers: Vec<Answer>,
}

impl Exercises {
    /// The numbers the question of the answer on page line `line` gives, which its answer may say
    /// again; none for a line in no answer.
    pub fn given(&self, line: usize) -> Vec<String> {
        let Some(answer) = self.answers.iter().rev().find(|a| a.line <= line) else { return Vec::new() };
        let in_answer = line < answer.line + answer.text.lines().count();
        let question = self.questions.get(answer.number - 1).filter(|_| in_answer);
        question.map(|q| numbers(q).into_iter().map(|r| q[r].to_string()).collect()).unwrap_or_default()
    }
}

/// The questions and answers of a chapter's `## Exercises` section, or what is wrong with it.
pub fn exercises(page: &Page) -> Result<Exercises, String> {
    let text = &page.text;
    let start = text.find("\n## Exercises\n").ok_or("it has no section `## Exercises`")?;
    let section = &text[start + 1..];
    if section[3..].contains("\n## ") {
        return Err("`## Exercises` is not its last section".into());
    }
    let first_line = text[..start].matches('\n').count() + 2;
    let open = section.find("\n<details>").ok_or("its exercises have no `<details>` block of answers")?;
    let close = section.find("\n</details>").ok_or("its `<details>` block is not closed")?;
    if !section[open..].contains("<summary>Answers</summary>") {
        return Err("its `<details>` block has no `<summary>Answers</summary>`".into());
    }
    // The questions: from each `N. ` at the start of a line to the next, before the answers.
    let mut questions: Vec<String> = Vec::new();
    for line in section[..open].lines() {
        let starts =
            line.split_once(". ").is_some_and(|(n, _)| n.parse::<usize>() == Ok(questions.len() + 1));
        if starts {
            questions.push(String::new());
        }
        if let Some(question) = questions.last_mut().filter(|_| !line.trim().is_empty() || starts) {
            question.push_str(line.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches(". "));
            question.push('\n');
        }
    }
    if questions.is_empty() {
        return Err("its exercises are not a numbered list `1. ...`".into());
    }
    // The answers: from each `**N.**` line to the next.
    let mut answers: Vec<Answer> = Vec::new();
    // `open` is the line break before `<details>`: the first line split off is the one it ends.
    let body_line = first_line + section[..open].matches('\n').count();
    for (i, line) in section[open..close].lines().enumerate() {
        let number =
            line.strip_prefix("**").and_then(|l| l.split_once(".**")).map(|(n, _)| n.parse::<usize>().ok());
        if let Some(Some(n)) = number {
            answers.push(Answer { number: n, line: body_line + i, text: String::new() });
        }
        if let Some(answer) = answers.last_mut() {
            answer.text.push_str(line);
            answer.text.push('\n');
        }
    }
    let numbered: Vec<usize> = answers.iter().map(|a| a.number).collect();
    if numbered != (1..=questions.len()).collect::<Vec<_>>() {
        return Err(format!("{} questions, but the answers are numbered {numbered:?}", questions.len()));
    }
    Ok(Exercises { questions, answers })
}

/// What is wrong with one answer: no checked figures, or a number outside its computed passages.
pub fn check_answer(answer: &Answer) -> Result<(), String> {
    let page = Page { path: "answer".into(), text: answer.text.clone() };
    let prose = page.prose();
    let found = passages(&prose, answer.line);
    let runs = blocks(&answer.text).iter().any(|b| b.language == "console");
    if found.is_empty() && !runs {
        return Err("it holds no computed passage (`<!-- computed: NAME -->`) and no console block: \
                    its figures would go unchecked"
            .into());
    }
    // Outside the passages and the code spans, no number.
    let mut outside = prose.clone();
    for p in &found {
        outside.replace_range(p.span.clone(), &" ".repeat(p.span.len()));
    }
    // The markers themselves (their names may hold digits) are no figures.
    while let Some(at) = outside.find("<!--") {
        let end = outside[at..].find("-->").map_or(outside.len(), |e| at + e + 3);
        outside.replace_range(at..end, &" ".repeat(end - at));
    }
    let outside = crate::markdown::without_code(&outside);
    let outside = outside.replace(&format!("**{}.**", answer.number), "");
    if let Some(number) = numbers(&outside).first() {
        let start = number.start.saturating_sub(30);
        let around = outside[start..(number.end + 30).min(outside.len())].replace('\n', " ");
        return Err(format!(
            "`{}` (in \"...{}...\") is in no computed passage: mark it `<!-- computed: NAME -->` and work \
             it out in tests/book/computed",
            &outside[number.clone()],
            around.trim()
        ));
    }
    Ok(())
}

#[test]
fn every_chapter_ends_with_exercises_whose_answers_are_checked() {
    let mut problems = Vec::new();
    let mut answered = 0;
    for page in pages() {
        let file = page.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !is_chapter(&file) {
            continue;
        }
        match exercises(&page) {
            Err(why) => problems.push(format!("{}: {why}", page.name())),
            Ok(exercises) => {
                for answer in &exercises.answers {
                    answered += 1;
                    if let Err(why) = check_answer(answer) {
                        problems.push(format!(
                            "{}: answer {}: {why}",
                            place(&page, answer.line),
                            answer.number
                        ));
                    }
                }
            }
        }
    }
    crate::check("exercises without checked answers", problems);
    assert!(answered >= 16, "only {answered} answers found in chapters 1 to 16");
}

#[test]
fn the_exercise_checks_catch_what_they_are_for() {
    let chapter = |body: &str| Page {
        path: "docs/99-x.md".into(),
        text: format!(
            "# X\n## Try it\ntry\n\n## Exercises\n\n1. Why?\n2. How much?\n\n{body}\n---\nfooter\n"
        ),
    };
    let good = "<details>\n<summary>Answers</summary>\n\n**1.** Because.\n\n```console\n$ skinning --help\n```\n\n\
                **2.** It is <!-- computed: x --> 0.5.\n\n</details>";
    let found = exercises(&chapter(good)).expect("well formed");
    let answers = &found.answers;
    assert_eq!((found.questions.len(), answers.len()), (2, 2));
    assert_eq!(found.questions[1], "How much?\n");
    // `**2.**` is on line 19 of the made-up chapter.
    assert_eq!(found.answers[1].line, 19);
    assert!(answers[1].text.starts_with("**2.** It is"));
    assert!(check_answer(&answers[0]).is_ok() && check_answer(&answers[1]).is_ok());
    // A number outside a passage; an answer with nothing checked; answers missing.
    let loose = good.replace("Because.", "Because 0.5.");
    let answers = exercises(&chapter(&loose)).expect("well formed").answers;
    assert!(check_answer(&answers[0]).is_err());
    let bare = good.replace("It is <!-- computed: x --> 0.5.", "It is so.");
    let answers = exercises(&chapter(&bare)).expect("well formed").answers;
    assert!(check_answer(&answers[1]).is_err());
    assert!(exercises(&chapter(&good.replace("**2.**", "**3.**"))).is_err());
    assert!(exercises(&chapter("no answers")).is_err());
}
