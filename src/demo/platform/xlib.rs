//! The few Xlib calls the program makes itself, beside winit's: libX11 is found at run time, as
//! winit finds it, and each function is looked up by name ([`x11_function`]). One of them asks,
//! on a connection of its own, whether the program's window still exists ([`window_gone`]): after
//! winit panics, that tells a window destroyed from outside from a bug.

use std::ffi::{c_char, c_int, c_ulong, c_void};
use std::sync::OnceLock;
use winit::raw_window_handle::RawWindowHandle;

/// The X window the program draws in, once it is made (X11 only).
static X_WINDOW: OnceLock<c_ulong> = OnceLock::new();

/// Remembers the window `handle` names, so that a panic can be told apart from a window destroyed
/// under it (`display::run_or_lost`).
pub fn watch_window(handle: RawWindowHandle) {
    let window = match handle {
        RawWindowHandle::Xlib(xlib) => xlib.window,
        RawWindowHandle::Xcb(xcb) => c_ulong::from(xcb.window.get()),
        _ => return,
    };
    let _ = X_WINDOW.set(window);
}

/// Whether the X window the program draws in no longer exists, asked on a connection of its own
/// (winit's may be in any state after a panic). False where it cannot be asked.
pub fn window_gone() -> bool {
    type OpenDisplay = unsafe extern "C" fn(*const c_char) -> *mut c_void;
    type CloseDisplay = unsafe extern "C" fn(*mut c_void) -> c_int;
    type GetAttributes = unsafe extern "C" fn(*mut c_void, c_ulong, *mut c_void) -> c_int;
    type ErrorHandler = unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int;
    type SetErrorHandler = unsafe extern "C" fn(Option<ErrorHandler>) -> Option<ErrorHandler>;
    unsafe extern "C" fn ignore(_: *mut c_void, _: *mut c_void) -> c_int {
        0
    }
    // SAFETY: each type is the C signature Xlib.h gives the function of that name.
    let found = unsafe {
        (
            x11_function::<OpenDisplay>(c"XOpenDisplay"),
            x11_function::<CloseDisplay>(c"XCloseDisplay"),
            x11_function::<GetAttributes>(c"XGetWindowAttributes"),
            x11_function::<SetErrorHandler>(c"XSetErrorHandler"),
        )
    };
    let (Some(&window), (Some(open), Some(close), Some(attributes), Some(set_handler))) =
        (X_WINDOW.get(), found)
    else {
        return false;
    };
    // SAFETY: these are Xlib's functions with their C signatures; `display` is used only while
    // open, and `buffer` has room for an XWindowAttributes (136 bytes on 64-bit systems). The error
    // handler is process-wide: ours, which ignores the BadWindow asked for, only for this request.
    unsafe {
        let display = open(std::ptr::null());
        if display.is_null() {
            return false;
        }
        let mut buffer = [0u64; 64];
        let before = set_handler(Some(ignore));
        let found = attributes(display, window, buffer.as_mut_ptr().cast());
        set_handler(before);
        close(display);
        found == 0
    }
}

/// A function of libX11, the same library winit has loaded; None if it cannot be found.
///
/// # Safety
/// `T` must be the function pointer type of the C signature Xlib.h declares for `name`: nothing
/// checks it, and calling a function through another signature is undefined behaviour.
pub unsafe fn x11_function<T: Copy>(name: &std::ffi::CStr) -> Option<T> {
    static LIBX11: OnceLock<Option<libloading::Library>> = OnceLock::new();
    // SAFETY: libX11 is already loaded by winit (or is about to be); loading it again only counts.
    let library = LIBX11.get_or_init(|| unsafe { libloading::Library::new("libX11.so.6") }.ok()).as_ref()?;
    // SAFETY: the caller promises `T` is the C signature of the function `name` names in Xlib.h;
    // the library stays loaded for the whole run (it lives in a static), so the pointer stays valid.
    unsafe { library.get::<T>(name.to_bytes_with_nul()).ok().map(|f| *f) }
}
