#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# edit-tree.sh BASE EDIT REPO: make EDIT a quilt tree for editing the
# patches in REPO/patches (a symlink, so `quilt refresh` writes into the
# repository).  An existing EDIT is kept: it may hold unrefreshed work.
set -euo pipefail
base=$1
edit=$2
repo=$3

if [ ! -d "$edit" ]; then
	echo "edit-tree: copying the base to $edit"
	cp -a "$base" "$edit.tmp"
	ln -s "$repo/patches" "$edit.tmp/patches"
	mv "$edit.tmp" "$edit"
	(cd "$edit" && { [ -z "$(sed -e '/^#/d' -e '/^$/d' patches/series)" ] || quilt push -a -q; })
fi
cat <<EOT
edit-tree: $edit has the base with patches/ applied (quilt).
  cd $edit
  quilt top | quilt applied          # where you are
  quilt new NNNN-subsystem-what.patch # a new patch on top
  quilt edit kernel/trace/ftrace.c    # or: quilt add FILE, then edit it
  quilt refresh -p ab --no-timestamps --no-index
                                      # writes patches/NNNN-....patch in the repo
  quilt header -e                     # From:, Subject: [PATCH] ..., the message
To change an existing patch: quilt pop NAME, edit, quilt refresh (the same
options), quilt push -a.  Or once, for every refresh:
  echo 'QUILT_REFRESH_ARGS="-p ab --no-timestamps --no-index"' >> ~/.quiltrc
(Debian's quiltrc refreshes without a/ b/ and with Index: lines, which
make export cannot read.)
Then 'make' re-assembles the build tree from base + patches + project files.
EOT
