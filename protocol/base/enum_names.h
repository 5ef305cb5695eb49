// One table per enum spells its values: rows of {value, "name"}, so adding a
// value is one line. The first row of a value is how it is written; later rows
// for the same value are aliases that parsing also accepts. Pure.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace lathe {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The spelling of `value`; the first row's for a value the table lacks (every
// table names all its enum's values, so that is never reached in practice).
template <class E, size_t N>
constexpr const char* nameOf(const EnumName<E> (&table)[N], E value) {
  for (const auto& row : table) {
    if (row.value == value) return row.name;
  }
  return table[0].name;
}

// The value spelled `name`, or nullopt when no row spells it.
template <class E, size_t N>
constexpr std::optional<E> valueOf(const EnumName<E> (&table)[N], std::string_view name) {
  for (const auto& row : table) {
    if (name == row.name) return row.value;
  }
  return std::nullopt;
}

}  // namespace lathe
