# Sourced by the benchmark scripts: sets `bin` to the partscat binary they measure, $BIN when
# given (a binary already built), else the `dist` profile's, built first.
#   root=…; source "$root/benches/binary.sh"
if [ -n "${BIN:-}" ]; then
  bin=$(realpath "$BIN")
else
  cargo build --profile dist --manifest-path "$root/Cargo.toml" >/dev/null
  bin="$root/target/dist/partscat"
fi
