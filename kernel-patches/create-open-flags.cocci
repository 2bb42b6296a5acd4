// SPDX-License-Identifier: GPL-2.0-only
/// Give inode_operations->create() and vfs_create() a trailing
/// `unsigned int open_flag` argument (patch 2 of the O_HOT/O_COLD series).
///
/// - every function with the ->create() signature
///   (struct user_namespace *, struct inode *, struct dentry *, umode_t,
///   bool) gets the new parameter, in its definition and prototypes;
/// - vfs_create() passes its new argument on to ->create();
///   lookup_open() passes the open flags of the open() being served and
///   dentry_create() the flags it was given;
/// - all other calls of vfs_create(), of ->create() through an
///   inode_operations pointer, and direct calls of the converted
///   functions pass 0.
///
/// Run from the top of the kernel tree, on the directories that hold
/// ->create() implementations or vfs_create() callers (find them with
/// `git grep -lE '^\s*\.create\s*=|vfs_create\(|i_op->create\(' fs`),
/// plus the few files outside those directories:
///
///   sp=create-open-flags.cocci
///   for d in fs/9p fs/affs fs/afs fs/bfs fs/btrfs fs/ceph fs/coda \
///	fs/ecryptfs fs/efivarfs fs/exfat fs/ext2 fs/ext4 fs/f2fs fs/fat \
///	fs/fuse fs/gfs2 fs/hfs fs/hfsplus fs/hostfs fs/hpfs fs/hugetlbfs \
///	fs/jffs2 fs/jfs fs/minix fs/nfs fs/nfsd fs/nilfs2 fs/ntfs3 fs/ocfs2 \
///	fs/omfs fs/orangefs fs/overlayfs fs/ramfs fs/reiserfs fs/smb \
///	fs/sysv fs/ubifs fs/udf fs/ufs fs/vboxsf fs/xfs; do
///	nice spatch --sp-file $sp --in-place --include-headers -j 2 --dir $d
///   done
///   for f in fs/namei.c fs/open.c fs/bad_inode.c mm/shmem.c \
///	ipc/mqueue.c include/linux/fs.h; do
///	nice spatch --sp-file $sp --in-place $f
///   done
///
/// Then check what is left with
///   git grep -nE 'vfs_create\(|i_op->create\(|\.create\s*='
/// and by building; update Documentation/filesystems/ by hand.
//
// Confidence: High
// Comments: matches on the ->create() signature, so an fs-internal helper
//           with exactly that signature would be converted too; review
//           the diff.
// Options: --include-headers

virtual patch

@vfs_create_def@
identifier u, d, de, m, e;
@@
 int vfs_create(struct user_namespace *u, struct inode *d, struct dentry *de,
	umode_t m, bool e
+	, unsigned int open_flag
 )
 {
 <...
 d->i_op->create(u, d, de, m, e
+	, open_flag
 )
 ...>
 }

@def@
identifier fn != vfs_create;
identifier u, d, de, m, e;
@@
 int fn(struct user_namespace *u, struct inode *d, struct dentry *de,
	umode_t m, bool e
+	, unsigned int open_flag
 )
 { ... }

@proto@
identifier fn;
@@
 int fn(struct user_namespace *, struct inode *, struct dentry *,
	umode_t, bool
+	, unsigned int
 );

@proto_named@
identifier fn;
identifier u, d, de, m, e;
@@
 int fn(struct user_namespace *u, struct inode *d, struct dentry *de,
	umode_t m, bool e
+	, unsigned int open_flag
 );

@method@
@@
 struct inode_operations {
 ...
 int (*create)(struct user_namespace *, struct inode *, struct dentry *,
	umode_t, bool
+	, unsigned int
 );
 ...
 };

// The two callers that have the real open flags pass them on.
@lookup_open_call@
expression I, E1, E2, E3, E4, E5;
type T;
@@
 T lookup_open(...)
 {
 <...
 I->i_op->create(E1, E2, E3, E4, E5
+	, open_flag
 )
 ...>
 }

@dentry_create_call@
expression E1, E2, E3, E4, E5;
identifier path, flags;
type T, T2;
@@
 T dentry_create(T2 path, int flags, ...)
 {
 <...
 vfs_create(E1, E2, E3, E4, E5
+	, flags
 )
 ...>
 }

@direct_call@
identifier def.fn;
expression E1, E2, E3, E4, E5;
@@
 fn(E1, E2, E3, E4, E5
+	, 0
 )

@vfs_call@
expression E1, E2, E3, E4, E5;
@@
 vfs_create(E1, E2, E3, E4, E5
+	, 0
 )

@iop_call@
expression I, E1, E2, E3, E4, E5;
@@
 I->i_op->create(E1, E2, E3, E4, E5
+	, 0
 )
