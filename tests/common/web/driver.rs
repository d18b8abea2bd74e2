//! One browser for a whole test program: `tests/web/drive.mjs` started once, at the first request,
//! and kept. Each request is a line on its standard input and runs in a page of its own; a thread
//! reads the answers and hands each to the test waiting for it, so tests that run side by side
//! share the browser. Chromium takes seconds to start, and it started once a test before.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// What the driver has said on standard error: page errors, each marked with its request.
type Said = Arc<Mutex<String>>;

/// How long a test waits for its answer: every step the driver waits on gives up after 60 s.
pub const ANSWER_WITHIN: Duration = Duration::from_secs(600);

pub struct Driver {
    input: ChildStdin,
    next: u64,
    waiting: Arc<Mutex<HashMap<u64, Sender<serde_json::Value>>>>,
    said: Said,
}

impl Driver {
    /// `node tests/web/drive.mjs NPM CHROMIUM BASE`, with a thread for each of its outputs. It ends
    /// when the test program does: its standard input closes, and it closes the browser.
    pub fn start(root: &Path, chromium: &Path, base: &str) -> Driver {
        let mut child = Command::new("node")
            .arg(root.join("tests/web/drive.mjs"))
            .args([root.join("target/npm").as_os_str(), chromium.as_os_str()])
            .arg(base)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node runs");
        let waiting: Arc<Mutex<HashMap<u64, Sender<serde_json::Value>>>> = Arc::default();
        let (answers, to) = (child.stdout.take().expect("its output"), waiting.clone());
        let (input, errors) =
            (child.stdin.take().expect("its input"), child.stderr.take().expect("its errors"));
        std::thread::spawn(move || {
            // A line that is not an answer is passed over here; its request's test then waits out
            // `ANSWER_WITHIN` and says so. Nothing here panics, so no test waits for ever.
            for line in BufReader::new(answers).lines().map_while(Result::ok) {
                let answer = serde_json::from_str::<serde_json::Value>(&line).unwrap_or_default();
                let Some(id) = answer["id"].as_u64() else { continue };
                if let Some(test) = to.lock().unwrap_or_else(PoisonError::into_inner).remove(&id) {
                    let _ = test.send(answer);
                }
            }
            // The driver has ended: the tests still waiting are told so (their senders go).
            let _ = child.wait();
            to.lock().unwrap_or_else(PoisonError::into_inner).clear();
        });
        let said = Said::default();
        let into = said.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(errors).lines().map_while(Result::ok) {
                into.lock().unwrap_or_else(PoisonError::into_inner).push_str(&format!("{line}\n"));
            }
        });
        Driver { input, next: 0, waiting, said }
    }

    /// Sends `steps` as a request; the answer comes on the returned channel, and where the driver
    /// ended first, the channel closes. Also what it has said so far, to tell from.
    pub fn send(
        &mut self,
        steps: serde_json::Value,
    ) -> (u64, std::sync::mpsc::Receiver<serde_json::Value>, Said) {
        let (id, (answer, receive)) = (self.next, channel());
        self.next += 1;
        self.waiting.lock().unwrap_or_else(PoisonError::into_inner).insert(id, answer);
        let request = serde_json::json!({"id": id, "steps": steps});
        writeln!(self.input, "{request}").expect("the driver takes a request");
        (id, receive, self.said.clone())
    }
}
