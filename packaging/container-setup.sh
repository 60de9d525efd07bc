#!/bin/sh
# The container image's service account and directories, run by packaging/Containerfile.
# The account gets no home directory of its own making: `useradd --create-home` would copy
# .bashrc and .profile into the store directory, and `serve` refuses a directory that holds
# files that are not a store's. CI runs this script under a scratch root (ROOT) to check
# that the store directory is left empty and that `serve` starts on it.
#
#   packaging/container-setup.sh [ROOT]
set -eu
root=${1:-}
if [ -n "$root" ]; then
    useradd --prefix "$root" --system --user-group --no-create-home \
        --home-dir /var/lib/partscat --shell /usr/sbin/nologin partscat
else
    useradd --system --user-group --no-create-home \
        --home-dir /var/lib/partscat --shell /usr/sbin/nologin partscat
fi
uid=$(awk -F: '$1 == "partscat" {print $3}' "$root/etc/passwd")
gid=$(awk -F: '$1 == "partscat" {print $4}' "$root/etc/passwd")
# The store: the account's alone. The inbox: the catalogue team's files, read by partscat.
install -d -o "$uid" -g "$gid" -m 0700 "$root/var/lib/partscat"
install -d -o "$uid" -g "$gid" -m 2770 "$root/var/spool/partscat/inbox"
