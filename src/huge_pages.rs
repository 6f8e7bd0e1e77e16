//! Large arrays read at random, backed by transparent huge pages where the system offers them.

/// Grows `v` to `n` entries of `fill`. A buffer of more than 2 MiB (one huge page) is first
/// offered to the kernel for transparent huge pages (Linux, where the system leaves them to
/// `madvise`): a search's per-node arrays on a voxel world span hundreds of MB read at random,
/// and with 4 KiB pages most reads also missed the TLB. (From 32 MiB down to 2 MiB, which takes
/// in a voxel world's blocked bits and the segment directory: 2–6% on A1's short queries when
/// the caches and the TLB start cold.)
pub fn grow_huge<T: Clone>(v: &mut Vec<T>, n: usize, fill: T) {
    if n <= v.len() {
        return;
    }
    let bytes = n * std::mem::size_of::<T>();
    if n > v.capacity() && bytes > 2 << 20 {
        let mut w: Vec<T> = Vec::with_capacity(n);
        advise_huge(w.as_ptr() as usize, bytes);
        w.extend_from_slice(v);
        *v = w;
    }
    v.resize(n, fill);
}

/// `n` copies of `fill`, in huge pages where [`grow_huge`] would use them.
pub fn filled_huge<T: Clone>(n: usize, fill: T) -> Vec<T> {
    let mut v = Vec::new();
    grow_huge(&mut v, n, fill);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(start: usize, bytes: usize) {
    // madvise wants a page-aligned start; the part before the first whole page is left out.
    const PAGE: usize = 4096;
    let aligned = start.next_multiple_of(PAGE);
    let len = (start + bytes).saturating_sub(aligned) / PAGE * PAGE;
    if len > 0 {
        // SAFETY: the range lies inside an allocation this process owns; the advice only
        // changes how the kernel backs it, never its contents. A failure is harmless.
        unsafe {
            libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_start: usize, _bytes: usize) {}
