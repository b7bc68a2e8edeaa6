# shellcheck shell=bash disable=SC2034  # `libs` is for the scripts that source this file
# Sourced by the NVIDIA device scripts, from the repository root: installs the GL packages
# carried in .gl, points GLVND at NVIDIA's EGL, and sets `libs`, the library path that the
# bundle's loader (.devrun/lib) runs the binaries with.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
libs=$PWD/.devrun/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib:/usr/lib/x86_64-linux-gnu
