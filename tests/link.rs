//! The URL codec: a link reproduces the same world at the same step, stays short, and
//! says what is wrong with a bad one.

use fencing_lab::link::{Link, ScenarioRef};
use fencing_lab::presets;
use fencing_lab::sim::{Action, Run};
use proptest::prelude::*;

/// A sandbox session of `n` actions chosen from what the world allows, by a fixed rule.
fn sandbox_session(choices: &[u16]) -> Run {
    let s = presets::get("sandbox").expect("sandbox preset");
    let mut run = Run::new(&s, None);
    for c in choices {
        let acts = run.world().enabled_actions();
        // Keep sessions lively: mostly progress, sometimes faults.
        let a = acts[*c as usize % acts.len()].clone();
        run.act(a).expect("enabled actions are accepted");
    }
    run
}

fn link_of(run: &Run) -> Link {
    Link::of(
        run,
        ScenarioRef::Preset(run.scenario.id.clone()),
        None,
        None,
    )
}

#[test]
fn two_hundred_sandbox_actions_fit_in_a_chat_link() {
    let choices: Vec<u16> = (0..200u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 7) as u16)
        .collect();
    let run = sandbox_session(&choices);
    let text = link_of(&run).encode();
    assert!(text.len() <= 2000, "{} characters", text.len());
    let back = Link::decode(&text)
        .expect("decodes")
        .to_run()
        .expect("replays");
    assert_eq!(back.world(), run.world());
    assert!(back.events().eq(run.events()));
}

#[test]
fn a_link_keeps_the_step_being_looked_at_and_the_variant() {
    let s = presets::get("paused-writer").unwrap();
    let v = s.variant("unfenced").unwrap();
    let mut run = Run::new(&s, Some(v));
    for _ in 0..5 {
        run.step_forward().unwrap();
    }
    run.act(Action::Advance { ticks: 3 }).unwrap();
    run.step_back();
    let link = link_of(&run);
    assert_eq!(link.script_steps, 5);
    assert_eq!(link.actions.len(), 1);
    let back = Link::decode(&link.encode()).unwrap().to_run().unwrap();
    assert_eq!(back.cursor(), run.cursor());
    assert_eq!(back.len(), run.len());
    assert_eq!(back.world(), run.world());
    assert_eq!(back.variant.as_deref(), Some("unfenced"));
}

#[test]
fn bad_links_say_what_is_wrong() {
    let run = sandbox_session(&[1, 2, 3, 4, 5, 6, 7, 8]);
    let text = link_of(&run).encode();
    let cut = &text[..text.len() - 3];
    let e = Link::decode(cut).unwrap_err().0;
    assert!(e.contains("incomplete") || e.contains("damaged"), "{e}");
    let future = text.replacen("v1.", "v9.", 1);
    assert!(Link::decode(&future).unwrap_err().0.contains("newer"));
    assert!(Link::decode("hello")
        .unwrap_err()
        .0
        .contains("not a Fencing Lab link"));
    assert!(Link::decode("v1.!!!").unwrap_err().0.contains("damaged"));
    let unknown = Link {
        scenario: ScenarioRef::Preset("no-such-preset".into()),
        variant: None,
        policy: None,
        seed: None,
        script_steps: 0,
        actions: vec![],
        cursor: 0,
        branches: vec![],
        branch_at: 0,
    };
    assert!(Link::decode(&unknown.encode())
        .unwrap_err()
        .0
        .contains("no-such-preset"));
}

#[test]
fn an_inline_scenario_travels_in_the_link() {
    let mut s = presets::get("paused-writer").unwrap();
    s.id = "my-own".into();
    s.title = "My own story".into();
    let mut run = Run::new(&s, None);
    run.run_script().unwrap();
    let link = Link::of(
        &run,
        ScenarioRef::Inline(Box::new(s.clone())),
        None,
        Some(7),
    );
    let back = Link::decode(&link.encode()).unwrap();
    assert_eq!(back, link);
    assert_eq!(back.to_run().unwrap().scenario.title, "My own story");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
    #[test]
    fn encode_then_decode_is_the_identity(choices in proptest::collection::vec(any::<u16>(), 0..60), back in 0usize..10) {
        let mut run = sandbox_session(&choices);
        for _ in 0..back.min(run.len()) {
            run.step_back();
        }
        let link = link_of(&run);
        let decoded = Link::decode(&link.encode()).expect("decodes");
        prop_assert_eq!(&decoded, &link);
        let again = decoded.to_run().expect("replays");
        prop_assert_eq!(again.world(), run.world());
    }
}

#[test]
fn an_await_travels_in_a_few_bytes_and_replays() {
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, None);
    let plain = link_of(&run).encode();
    run.act(Action::Acquire {
        worker: "A".into(),
        lock: None,
    })
    .unwrap();
    let acquired = link_of(&run).encode();
    for a in [
        Action::Await {
            worker: "A".into(),
            lock: None,
            within: None,
        },
        Action::Await {
            worker: "B".into(),
            lock: Some("report-lock".into()),
            within: Some(30),
        },
    ] {
        if matches!(&a, Action::Await { worker, .. } if worker == "B") {
            run.act(Action::Advance { ticks: 10 }).unwrap();
            run.act(Action::Acquire {
                worker: "B".into(),
                lock: None,
            })
            .unwrap();
        }
        run.act(a).unwrap();
    }
    let link = link_of(&run);
    let text = link.encode();
    // Five actions in short form: a handful of bytes each, not their JSON.
    assert!(
        text.len() <= plain.len() + 24,
        "{} vs {} characters",
        text.len(),
        plain.len()
    );
    assert!(acquired.len() < text.len());
    let back = Link::decode(&text).expect("decodes");
    assert_eq!(back.actions, link.actions);
    let back = back.to_run().expect("replays");
    assert_eq!(back.world(), run.world());
    assert!(back.events().eq(run.events()));
}

#[test]
fn numbers_past_two_to_the_32_are_refused_never_cut_short() {
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, s.variants.first());
    run.step_forward().unwrap();
    run.step_forward().unwrap();
    let mut link = link_of(&run);
    // On a 32-bit page `as usize` would have read 2^32 + 2 as 2 and opened at step 2.
    link.script_steps = (1 << 32) + 2;
    let e = Link::decode(&link.encode()).unwrap_err().to_string();
    assert!(e.contains("far too large"), "{e}");
    let mut link = link_of(&run);
    link.cursor = (1 << 33) + 1;
    let e = Link::decode(&link.encode()).unwrap_err().to_string();
    assert!(e.contains("far too large"), "{e}");
}

#[test]
fn an_action_out_of_range_in_a_link_is_refused_with_its_reason() {
    let s = presets::get("sandbox").unwrap();
    let run = Run::new(&s, None);
    let mut link = link_of(&run);
    link.actions = vec![Action::ClockJump {
        node: "A".into(),
        by: 1 << 40,
    }];
    let e = Link::decode(&link.encode()).unwrap_err().to_string();
    assert!(e.contains("a clock jump of at most"), "{e}");
}

#[test]
fn every_fragment_but_an_empty_one_is_opened_or_explained() {
    use fencing_lab::link::fragment_to_open;
    assert_eq!(fragment_to_open(""), None);
    assert_eq!(fragment_to_open("#"), None);
    assert_eq!(fragment_to_open("#panic"), None);
    // Percent-escaped by a mail client: the same link.
    assert_eq!(fragment_to_open("#%76%31.AAA").as_deref(), Some("v1.AAA"));
    // Mangled: offered to the decoder, which says what is wrong rather than nothing.
    for h in ["#V1.", "#%76%31.", "#hello", "#v1", "#%zz"] {
        let text = fragment_to_open(h).unwrap_or_else(|| panic!("{h} ignored"));
        assert!(Link::decode(&text).is_err(), "{h}");
    }
}

#[test]
fn a_run_encodes_its_link_without_replaying_it_and_gets_the_same_text() {
    for n in [0usize, 1, 7, 40, 200] {
        let choices: Vec<u16> = (0..n as u16).map(|i| i.wrapping_mul(7919) ^ 0x55).collect();
        let mut run = sandbox_session(&choices);
        run.seek(run.len() / 2);
        let link = link_of(&run);
        assert_eq!(link.encode_from(&run, &[]), link.encode(), "{n} actions");
    }
    // A scripted run the user took over.
    let s = presets::get("paused-writer").unwrap();
    let mut run = Run::new(&s, s.variants.first());
    for _ in 0..4 {
        run.step_forward().unwrap();
    }
    run.act(Action::Advance { ticks: 2 }).unwrap();
    let link = link_of(&run);
    assert_eq!(link.encode_from(&run, &[]), link.encode());
    assert_eq!(Link::decode(&link.encode_from(&run, &[])).unwrap(), link);
}

#[test]
fn a_link_that_would_keep_the_page_busy_is_refused_at_once() {
    let s = presets::get("sandbox").unwrap();
    let run = Run::new(&s, None);
    let mut link = link_of(&run);
    // 1,000 × advance 100000 took a page 12 s; anything past a million ticks is refused.
    link.actions = vec![Action::Advance { ticks: 100_000 }; 11];
    let e = Link::decode(&link.encode()).unwrap_err().to_string();
    assert!(
        e.contains(
            "the link asks too much: it lets 1100000 ticks pass, more than the 1000000 a run may"
        ),
        "{e}"
    );
    link.actions = vec![Action::Advance { ticks: 100_000 }; 10];
    assert!(Link::decode(&link.encode()).is_ok());
}

/// Every number field of a link, given 2^32+1, 2^63, 2^64−1, a ten-byte encoding past 64 bits
/// and an eleven-byte one: a count or an index refuses all five, a seed takes any 64-bit
/// number and refuses only the encodings past 64 bits, and a seed flag is 0 or 1.
#[test]
fn every_number_field_of_a_link_keeps_to_its_range() {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    fn varint(mut v: u64) -> Vec<u8> {
        let mut out = Vec::new();
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
        out
    }
    let past_64 = [vec![0x80; 9], vec![0x02]].concat();
    let eleven = [vec![0x80; 10], vec![0x01]].concat();
    let values: [(Vec<u8>, bool); 5] = [
        (varint((1 << 32) + 1), true),
        (varint(1 << 63), true),
        (varint(u64::MAX), true),
        (past_64, false),
        (eleven, false),
    ];
    // A link to paused-writer at step 2: seed (flag, value), script steps, actions, cursor.
    let link = |seed: &[u8], steps: &[u8], cursor: &[u8]| {
        let id = b"paused-writer";
        let mut b = vec![1, 0, id.len() as u8];
        b.extend_from_slice(id);
        b.extend_from_slice(&[0, 0]);
        b.extend_from_slice(seed);
        b.extend_from_slice(steps);
        b.push(0);
        b.extend_from_slice(cursor);
        format!("v1.{}", URL_SAFE_NO_PAD.encode(b))
    };
    let good = link(&[0], &[2], &[2]);
    assert_eq!(Link::decode(&good).expect("the plain link opens").cursor, 2);
    for (bytes, fits_64) in &values {
        let seeded = link(&[[1].as_slice(), bytes].concat(), &[2], &[2]);
        match Link::decode(&seeded) {
            Ok(l) if *fits_64 => assert!(l.seed.is_some_and(|s| s > 1 << 32)),
            Ok(l) => panic!("{bytes:?} opened as seed {:?}", l.seed),
            Err(e) => {
                assert!(!fits_64, "{bytes:?}: {e}");
                assert!(e.0.contains("longer than 64 bits"), "{e}");
            }
        }
        for l in [link(&[0], bytes, &[2]), link(&[0], &[2], bytes)] {
            let e = Link::decode(&l).expect_err("a count past 2^32 is refused");
            let why = if *fits_64 {
                "far too large"
            } else {
                "longer than 64 bits"
            };
            assert!(e.0.contains(why), "{bytes:?}: {e}");
        }
    }
    for flag in [2u8, 0x81, 0xff] {
        let e = Link::decode(&link(&[flag, 5], &[2], &[2])).expect_err("a flag is 0 or 1");
        assert!(e.0.contains("seed flag"), "{e}");
    }
}

/// The page reads which preset a link names from its header alone, to fetch the preset's
/// file before decoding the rest: the same id `decode` finds, and nothing for an inline
/// scenario or text that is not a link.
#[test]
fn the_preset_a_link_names_is_read_from_its_header() {
    for id in presets::ids() {
        let s = presets::get(id).unwrap();
        let mut run = Run::new(&s, s.variants.first());
        let _ = run.step_forward();
        let text = link_of(&run).encode();
        assert_eq!(Link::preset_named(&text).as_deref(), Some(id));
        assert_eq!(Link::preset_named(&format!("#{text}")).as_deref(), Some(id));
        let inline = Link::of(&run, ScenarioRef::Inline(Box::new(s.clone())), None, None).encode();
        assert_eq!(Link::preset_named(&inline), None, "{id}");
    }
    for bad in [
        "",
        "v1",
        "v1.",
        "v1.%%%%",
        "v2.AQA",
        "v1.ééééé",
        "not a link",
    ] {
        assert_eq!(Link::preset_named(bad), None, "{bad}");
    }
}
