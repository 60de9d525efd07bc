//! The import progress bar: bytes of the file being read, then the commit's phases; files
//! for a DMM package.
//! indicatif draws nothing when stderr is not a terminal.

use std::cell::RefCell;

use indicatif::{ProgressBar, ProgressStyle};
use partscat::import::{ImportType, Progress};

pub struct ImportBar(RefCell<ProgressBar>);

impl ImportBar {
    pub fn new() -> ImportBar {
        ImportBar(RefCell::new(ProgressBar::hidden()))
    }

    pub fn finish(&self) {
        self.0.borrow().finish_and_clear();
    }
}

impl Progress for ImportBar {
    fn file_started(&self, import_type: ImportType, bytes: u64) {
        let style = ProgressStyle::with_template(
            "{prefix:>16} [{bar:40}] {bytes}/{total_bytes} ({bytes_per_sec}) {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        let bar = ProgressBar::new(bytes)
            .with_style(style)
            .with_prefix(import_type.name());
        self.0.replace(bar).finish_and_clear();
    }

    fn advanced(&self, bytes_read: u64) {
        self.0.borrow().set_position(bytes_read);
    }

    fn phase(&self, text: &str) {
        self.0.borrow().set_message(text.to_owned());
    }

    fn files(&self, done: u64, total: u64) {
        let bar = self.0.borrow();
        if bar.length() != Some(total) {
            let style = ProgressStyle::with_template("[{bar:40}] {pos}/{len} files {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
            let message = bar.message();
            drop(bar);
            let files = ProgressBar::new(total)
                .with_style(style)
                .with_message(message);
            files.set_position(done);
            self.0.replace(files).finish_and_clear();
        } else {
            bar.set_position(done);
        }
    }
}
