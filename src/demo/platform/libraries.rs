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
//!
//! OpenGL itself comes from a driver that libGL or libEGL (glvnd) loads in turn: Mesa's, on most
//! machines. When a library Mesa's driver needs is missing (libxcb-randr, libxcb-glx, libxcb-dri3...),
//! glutin only says "argument does not name a valid config". So the driver the window will use is
//! loaded here too, and the library it lacks is named with its package. A machine whose OpenGL is
//! not Mesa's (no Mesa driver at all) is left to its own driver.

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

/// Mesa's drivers, as glvnd names them. On X11, glutin takes GLX when libGL loads, else EGL; on
/// Wayland, EGL.
const MESA_GLX: Library = lib("libGLX_mesa.so.0", "libglx-mesa0", "Mesa's OpenGL through GLX");
const MESA_EGL: Library = lib("libEGL_mesa.so.0", "libegl-mesa0", "Mesa's EGL");

/// Libraries Mesa's drivers load in turn, each found by hiding it under Xvfb: without it the
/// window's OpenGL fails. The GLX driver needs all but libgbm; the EGL one all but libxcb-glx,
/// libxcb-shm and libXxf86vm.
const MESA_NEEDS: &[Library] = &[
    lib("libxcb-randr.so.0", "libxcb-randr0", "X11 RandR through xcb"),
    lib("libxcb-glx.so.0", "libxcb-glx0", "GLX through xcb"),
    lib("libxcb-dri3.so.0", "libxcb-dri3-0", "DRI3 through xcb"),
    lib("libxcb-dri2.so.0", "libxcb-dri2-0", "DRI2 through xcb"),
    lib("libxcb-present.so.0", "libxcb-present0", "X11 Present through xcb"),
    lib("libxcb-sync.so.1", "libxcb-sync1", "X11 Sync through xcb"),
    lib("libxcb-xfixes.so.0", "libxcb-xfixes0", "X11 XFixes through xcb"),
    lib("libxcb-shm.so.0", "libxcb-shm0", "X11 shared memory through xcb"),
    lib("libxshmfence.so.1", "libxshmfence1", "X11 shared memory fences"),
    lib("libXxf86vm.so.1", "libxxf86vm1", "X11 video modes"),
    lib("libdrm.so.2", "libdrm2", "the kernel's graphics interface"),
    lib("libexpat.so.1", "libexpat1", "the XML parser Mesa reads its settings with"),
    lib("libgbm.so.1", "libgbm1", "Mesa's buffer manager"),
];

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
    let (egl, glx) = (failures.next().flatten(), failures.next().flatten());
    if let (Some(egl), Some(glx)) = (&egl, &glx) {
        return Err(format!(
            "cannot load OpenGL: neither {} ({egl}) nor {} ({glx}); on Debian or Ubuntu install {}, {} \
             and libgl1-mesa-dri",
            OPENGL[0].file, OPENGL[1].file, OPENGL[0].package, OPENGL[1].package
        ));
    }
    check_mesa(if server == Server::X11 && glx.is_none() { &MESA_GLX } else { &MESA_EGL })
}

/// Loads Mesa's `driver`, if this machine has it: a library it needs that is missing is named
/// with its package (or, if not one of [`MESA_NEEDS`], named as the system names it).
fn check_mesa(driver: &Library) -> Result<(), String> {
    let Err(why) = load(driver.file) else { return Ok(()) };
    if let Some(needed) = MESA_NEEDS.iter().find(|library| why.contains(library.file)) {
        return Err(format!(
            "cannot load {} ({}), which {} needs: {why}; on Debian or Ubuntu install {}",
            needed.file, needed.what, driver.what, needed.package
        ));
    }
    // The system names the library that is missing; without another name, the driver itself is.
    let names_another = why.contains(".so") && !why.contains(driver.file);
    if !names_another && why.contains("No such file or directory") {
        // No Mesa here: the OpenGL driver is another one (NVIDIA's, say), which glvnd will find.
        return Ok(());
    }
    let install = match names_another {
        true => "the package that has it (apt-file search finds it)",
        false => driver.package,
    };
    Err(format!(
        "cannot load {} ({}): {why}; on Debian or Ubuntu install {install}",
        driver.file, driver.what
    ))
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
