//! The event log's page: which lines of a run it shows. A long run shows its newest
//! `LOG_PAGE` lines, with a button for earlier ones: a log of thousands of lines re-rendered
//! on every step would make each step slow, so only the lines shown are gathered.

use crate::sim::event::{Event, EventKind};
use crate::sim::run::Run;

/// Lines shown at first.
pub const LOG_PAGE: usize = 200;

/// Lines each "Show earlier events" adds.
pub const LOG_MORE: usize = 5 * LOG_PAGE;

/// One line of the log.
#[derive(Debug)]
pub struct LogLine<'a> {
    /// Its place in the whole log, from 0.
    pub index: usize,
    pub event: &'a Event,
    /// Caused by the current step: marked as the step just taken.
    pub recent: bool,
    /// The first line of its step.
    pub step_start: bool,
}

/// The lines of a run up to its current step that a log showing `shown` lines holds.
#[derive(Debug)]
pub struct LogPage<'a> {
    /// Every line up to the current step.
    pub total: usize,
    /// The index of the first line shown: as many lines are not shown.
    pub first: usize,
    /// The lines shown, oldest first.
    pub lines: Vec<LogLine<'a>>,
}

impl LogPage<'_> {
    /// The newest `shown` lines of `run` up to its current step.
    pub fn of(run: &Run, shown: usize) -> LogPage<'_> {
        let total = run.event_count();
        let first = total.saturating_sub(shown);
        // Walk the steps backwards from the present, only as far as the lines shown.
        let mut lines = Vec::new();
        let mut s = run.cursor();
        while s > 0 {
            let end = run.events_end(s).unwrap_or(0);
            let evs = run.step_events(s);
            let start = end - evs.len();
            for (i, event) in evs.iter().enumerate().rev() {
                let index = start + i;
                if index < first {
                    break;
                }
                lines.push(LogLine {
                    index,
                    event,
                    recent: s == run.cursor(),
                    step_start: i == 0,
                });
            }
            if start <= first {
                break;
            }
            s -= 1;
        }
        lines.reverse();
        LogPage {
            total,
            first,
            lines,
        }
    }
}

/// The class a line is styled by: what kind of decision it records, if any.
pub fn event_class(k: &EventKind) -> &'static str {
    match k {
        EventKind::Violation { .. } => "ev-violation",
        EventKind::WriteRejected { .. } => "ev-rejected",
        EventKind::WriteAccepted { .. } => "ev-accepted",
        _ => "ev-plain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Action;
    use crate::view::state::{build_run, load_presets, Choice};

    /// A run of many steps, most of them causing events: the sandbox, driven through the
    /// moves it offers, with time passing between.
    fn long_run() -> Run {
        let s = load_presets()
            .into_iter()
            .find(|s| s.id == "sandbox")
            .expect("preset");
        let mut run = build_run(&s, &Choice::default_for(&s));
        run.run_script().expect("script");
        for k in 0..300 {
            let moves = run.world().enabled_actions();
            let a = match moves.len() {
                n if n > 0 && k % 3 != 0 => moves[k % n].clone(),
                _ => Action::Advance { ticks: 2 },
            };
            run.act(a).expect("an offered move is taken");
        }
        run
    }

    fn all_lines(run: &Run) -> Vec<(usize, String)> {
        run.events().map(|e| e.to_string()).enumerate().collect()
    }

    #[test]
    fn a_page_is_the_newest_lines_in_order_and_more_reaches_the_start() {
        let run = long_run();
        let all = all_lines(&run);
        assert!(all.len() > LOG_PAGE + 10, "{} events", all.len());
        let page = LogPage::of(&run, LOG_PAGE);
        assert_eq!(page.total, all.len());
        assert_eq!(page.first, all.len() - LOG_PAGE);
        let shown: Vec<(usize, String)> = page
            .lines
            .iter()
            .map(|l| (l.index, l.event.to_string()))
            .collect();
        assert_eq!(shown, all[page.first..]);

        let whole = LogPage::of(&run, LOG_PAGE + LOG_MORE * 100);
        assert_eq!(whole.first, 0);
        assert_eq!(whole.lines.len(), all.len());
    }

    #[test]
    fn the_current_steps_lines_are_recent_and_each_step_starts_a_line() {
        let mut run = long_run();
        let busy = (run.len() / 2..)
            .find(|&s| !run.step_events(s).is_empty())
            .expect("a step with events");
        run.seek(busy);
        let page = LogPage::of(&run, usize::MAX);
        assert_eq!(page.total, run.event_count());
        let indexes = |marked: fn(&LogLine) -> bool| -> Vec<usize> {
            page.lines
                .iter()
                .filter(|l| marked(l))
                .map(|l| l.index)
                .collect()
        };
        let recent = indexes(|l| l.recent);
        let end = run.event_count();
        let start = end - run.last_step_events().len();
        assert!(start < end);
        assert_eq!(recent, (start..end).collect::<Vec<_>>());
        // Every step that caused events starts where the step before it ended.
        let starts = indexes(|l| l.step_start);
        let expected: Vec<usize> = (1..=run.cursor())
            .filter(|&s| !run.step_events(s).is_empty())
            .map(|s| run.events_end(s - 1).unwrap_or(0))
            .collect();
        assert_eq!(starts, expected);
    }

    #[test]
    fn an_empty_run_has_no_lines() {
        let s = load_presets().remove(0);
        let run = build_run(&s, &Choice::default_for(&s));
        let page = LogPage::of(&run, LOG_PAGE);
        assert_eq!((page.total, page.first, page.lines.len()), (0, 0, 0));
    }
}
