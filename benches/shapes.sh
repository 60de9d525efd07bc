# Sourced by the benches that generate a catalogue: `shape_flags SHAPE` sets the array
# `shape` to `partscat gen`'s flags for a named shape, so every bench measures the same ones.
#   gen             the generator's own (3–7 links with positions, every kind of row)
#   link-heavy      every article fits 8 vehicles, link rows as short as a fitment file's
#   crossref-heavy  20 brands, 299 generic articles, 10,000 vehicles, 8 short links, 3.5 cross
#                   numbers and 1.15 prices an article, no criteria, media or kits
#   a number N      as link-heavy, with N links an article
#   anything else   taken as `gen`'s own flags, e.g. "--brands 40 --crossrefs-per-article 6"
shape_flags() {
  case "${1:-gen}" in
    gen) shape=() ;;
    link-heavy) shape=(--links-per-article 8) ;;
    crossref-heavy)
      shape=(--brands 20 --genarts 299 --vehicles 10000 --links-per-article 8
        --crossrefs-per-article 3.5 --prices-per-article 1.15 --criteria-per-article 0
        --media-per-article 0 --kits false) ;;
    *[!0-9]*) read -r -a shape <<<"$1" ;;
    *) shape=(--links-per-article "$1") ;;
  esac
}
