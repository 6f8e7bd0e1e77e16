#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| pathlab::fuzz_checks::project(data));
