//! The system libraries a window needs, checked before winit and glutin go looking for them.
//!
//! winit and glutin do not link the desktop's libraries: they load them when the program runs
//! (`dlopen`), so the program starts on machines without them. But when one is missing they say
//! it badly: winit panics inside a dependency without libxkbcommon, reports "set DISPLAY"
//! without libX11 or libXi, and glutin says just "not found" without libEGL and libGL. So before
//! a window is opened each library is loaded here first, with `libloading` (which winit and glutin
//! themselves use), and the first one missing is named with the Debian package that has it.
//!
//! The list is what this program's winit and glutin load, by the same file names. libXrandr is
//! not on it: winit 0.30 speaks RandR through xcb, and the window opens without libXrandr.

/// A library the window needs: its file name and the Debian (and Ubuntu) package that ships it.
struct Library {
    file: &'static str,
    package: &'static str,
    what: &'static str,
}

const fn lib(file: &'static str, package: &'static str, what: &'static str) -> Library {
    Library { file, package, what }
}

/// What winit needs on an X server.
const X11: &[Library] = &[
    lib("libX11.so.6", "libx11-6", "the X11 client library"),
    lib("libX11-xcb.so.1", "libx11-xcb1", "Xlib's bridge to xcb"),
    lib("libXcursor.so.1", "libxcursor1", "X11 mouse cursors"),
    lib("libXi.so.6", "libxi6", "X11 input devices"),
    lib("libxkbcommon.so.0", "libxkbcommon0", "the keyboard library"),
    lib("libxkbcommon-x11.so.0", "libxkbcommon-x11-0", "the keyboard library's X11 part"),
];

/// What winit and glutin need on a Wayland compositor.
const WAYLAND: &[Library] = &[
    lib("libwayland-client.so.0", "libwayland-client0", "the Wayland client library"),
    lib("libwayland-cursor.so.0", "libwayland-cursor0", "Wayland mouse cursors"),
    lib("libwayland-egl.so.1", "libwayland-egl1", "OpenGL on Wayland"),
    lib("libxkbcommon.so.0", "libxkbcommon0", "the keyboard library"),
];

/// OpenGL for a window comes through EGL or GLX: one of the two is enough.
const OPENGL: &[Library] =
    &[lib("libEGL.so.1", "libegl1", "EGL"), lib("libGL.so.1", "libgl1", "OpenGL through GLX")];

/// Which display server the window will talk to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    X11,
    Wayland,
}

/// Checks that everything a window on `server` needs can be loaded; if not, says which library,
/// why, and which package to install.
pub fn check(server: Server) -> Result<(), String> {
    let needed = match server {
        Server::X11 => X11,
        Server::Wayland => WAYLAND,
    };
    for library in needed {
        load(library.file).map_err(|e| {
            format!(
                "cannot load {} ({}): {e}; on Debian or Ubuntu install {}",
                library.file, library.what, library.package
            )
        })?;
    }
    let mut failures = OPENGL.iter().map(|library| load(library.file).err());
    if let (Some(Some(egl)), Some(Some(glx))) = (failures.next(), failures.next()) {
        return Err(format!(
            "cannot load OpenGL: neither {} ({egl}) nor {} ({glx}); on Debian or Ubuntu install {}, {} \
             and libgl1-mesa-dri",
            OPENGL[0].file, OPENGL[1].file, OPENGL[0].package, OPENGL[1].package
        ));
    }
    Ok(())
}

/// Loads and unloads a library; the error is the system's own reason: missing, broken, or a
/// library it needs in turn that is missing.
fn load(file: &str) -> Result<(), String> {
    // SAFETY: these are the desktop's own libraries, which winit and glutin load right after this
    // anyway; loading one runs only its initialisers, which need nothing from us.
    unsafe { libloading::Library::new(file) }.map(drop).map_err(|e| {
        // The system says "libfoo.so.1: why"; the name is already in our message. A library it
        // needs in turn keeps its own name ("libxcb.so.1: cannot open shared object file: ...").
        let text = e.to_string();
        text.strip_prefix(&format!("{file}: ")).unwrap_or(&text).to_string()
    })
}
