//! Counts heap allocations, so `--stats` and the tests can show that a steady frame allocates
//! nothing, and that the heap the program holds does not grow over a long run.
//!
//! [`Counting`] is the system allocator with two counters in front; a program makes it its global
//! allocator (`#[global_allocator]`, as `src/main.rs` does). [`count`] is how many allocations were
//! made so far: read it before and after the work it watches. [`held_bytes`] is how many bytes are
//! allocated and not yet freed: a kept allocation or a buffer that grows shows there, whoever made
//! it, while a driver's own memory (`malloc` called from C) does not. Each counter is one relaxed
//! atomic add per call: nothing next to the allocation itself. They count every thread together.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// Bytes allocated minus bytes freed. Unsigned with wrapping adds: each free subtracts what its
/// allocation added before, so the difference is right even while two threads race.
static HELD: AtomicU64 = AtomicU64::new(0);

/// The system allocator, counting. Install it with `#[global_allocator]`.
pub struct Counting;

// SAFETY: every call is passed straight to `System`, which upholds the `GlobalAlloc` contract; the
// counters only watch (a failed call, which returns null, changes no block and so no byte held).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            HELD.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same layout contract as the caller's.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            HELD.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        block
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `ptr` came from this allocator with `layout`, as the caller guarantees.
        let block = unsafe { System.realloc(ptr, layout, new_size) };
        if !block.is_null() {
            // The block's size moves from the old to the new; wrapping, so a shrink subtracts.
            HELD.fetch_add((new_size as u64).wrapping_sub(layout.size() as u64), Ordering::Relaxed);
        }
        block
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: `ptr` came from this allocator with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocations (including reallocations) since the program started, on every thread.
pub fn count() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// Bytes the program holds on the heap now: allocated through [`Counting`] and not freed yet.
pub fn held_bytes() -> u64 {
    HELD.load(Ordering::Relaxed)
}
