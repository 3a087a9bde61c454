//! The steps of `crates/adapter/src/handlers/chat.rs` for a chat body, through the core's own
//! functions, one export each, for bench/body_steps.mjs: the body pushed chunk by chunk into
//! [`BodyStream`] (as `read_chat_body` does), `finish`, `parse_chat_request_at`, the body
//! dropped, the last message's file decoded (`inline_file`, as `keep_files` does), its data: URL
//! replaced by a URL. The global allocator is the default one (dlmalloc on wasm32, as in the
//! worker) behind a counter of live bytes and their peak.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use session_agent_core::files::inline::{inline_file, InlineFile};
use session_agent_core::files::settings::FileSettings;
use session_agent_core::request::{
    parse_chat_request_at, BodyStream, ChatRequest, FilesAt, Limits,
};

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn add(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add(layout.size());
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A move holds both at once: counted so (the most it may be).
        add(new_size);
        let out = System.realloc(ptr, layout, new_size);
        LIVE.fetch_sub(layout.size(), Relaxed);
        out
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Where the runner writes each chunk.
const CHUNK_BYTES: usize = 1 << 16;

#[derive(Default)]
struct Steps {
    chunk: Vec<u8>,
    stream: Option<BodyStream>,
    body: Option<Vec<u8>>,
    chat: Option<ChatRequest>,
    file: Option<InlineFile>,
}

thread_local! {
    static STEPS: RefCell<Steps> = RefCell::new(Steps::default());
}

fn with<T>(f: impl FnOnce(&mut Steps) -> T) -> T {
    STEPS.with(|steps| f(&mut steps.borrow_mut()))
}

/// Live bytes now.
#[no_mangle]
pub extern "C" fn live() -> usize {
    LIVE.load(Relaxed)
}

/// The most live bytes since the last call (then counted from now).
#[no_mangle]
pub extern "C" fn peak() -> usize {
    PEAK.swap(LIVE.load(Relaxed), Relaxed)
}

/// A new body (the worker's default limits): where to write its chunks.
#[no_mangle]
pub extern "C" fn start() -> *mut u8 {
    with(|s| {
        let limits = Limits::default();
        *s = Steps::default();
        s.chunk = vec![0; CHUNK_BYTES];
        s.stream = Some(BodyStream::new(
            limits.max_body_bytes,
            limits.max_message_bytes,
        ));
        s.chunk.as_mut_ptr()
    })
}

/// The next `len` bytes of the body, written at `start()`'s pointer; 0 when refused.
#[no_mangle]
pub extern "C" fn push(len: usize) -> i32 {
    with(|s| {
        let chunk = &s.chunk[..len];
        s.stream.as_mut().unwrap().push(chunk).is_ok() as i32
    })
}

#[no_mangle]
pub extern "C" fn finish() {
    with(|s| s.body = Some(s.stream.take().unwrap().finish()))
}

/// 0 when the body is refused.
#[no_mangle]
pub extern "C" fn parse() -> i32 {
    with(|s| {
        let at = FilesAt {
            origin: "http://127.0.0.1:8787",
            session: "steps",
        };
        let parsed = parse_chat_request_at(s.body.as_ref().unwrap(), &Limits::default(), Some(&at));
        s.chat = parsed.ok();
        s.chat.is_some() as i32
    })
}

#[no_mangle]
pub extern "C" fn drop_body() {
    with(|s| s.body = None)
}

/// The last message's first file out of its data: URL; 0 when it is refused.
#[no_mangle]
pub extern "C" fn decode() -> i32 {
    with(|s| {
        let settings = FileSettings::new(None, 3600, Some("k".repeat(32)), 10 << 20).unwrap();
        let file = inline_file(&s.chat.as_ref().unwrap().attachments[0], &settings);
        s.file = file.ok().flatten();
        s.file.is_some() as i32
    })
}

/// The data: URL replaced by the file's URL, as `keep_files` does once the file is kept.
#[no_mangle]
pub extern "C" fn replace_url() {
    with(|s| {
        s.chat.as_mut().unwrap().attachments[0].url =
            "http://127.0.0.1:8787/api/sessions/steps/files/0123456789abcdef0123456789abcdef"
                .into();
    })
}

#[no_mangle]
pub extern "C" fn drop_all() {
    with(|s| *s = Steps::default())
}
