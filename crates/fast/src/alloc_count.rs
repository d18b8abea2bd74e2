//! Counts heap allocations, so `--stats` and the tests can show that a steady frame allocates
//! nothing.
//!
//! [`Counting`] is the system allocator with a counter in front; a program makes it its global
//! allocator (`#[global_allocator]`, as `src/main.rs` does) and reads [`count`] before and after
//! the work it watches. The counter is one relaxed atomic add per allocation: nothing next to the
//! allocation itself. It counts every thread's allocations together.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

/// The system allocator, counting. Install it with `#[global_allocator]`.
pub struct Counting;

// SAFETY: every call is passed straight to `System`, which upholds the `GlobalAlloc` contract.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `GlobalAlloc::alloc` asks of its caller a layout of non-zero size, and ours was
        // asked the same; `System` gets that very layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the layout our caller promised to be of non-zero size, handed on unchanged, is
        // what `System.alloc_zeroed` asks.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: our caller promises `ptr` came from this allocator with `layout` and `new_size`
        // is valid for it; every block this allocator gave came from `System`, so the promise holds
        // for `System.realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was given by this allocator with `layout` (our caller's promise), which
        // means by `System` with it, as `System.dealloc` asks; nothing else frees it.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations (including reallocations) since the program started, on every thread.
pub fn count() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}
