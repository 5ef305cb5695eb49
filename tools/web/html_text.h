// HTML turned into readable Markdown-flavoured text for a model: headings,
// paragraphs, lists, code blocks and tables as Markdown, links as
// [text](absolute URL), scripts, styles and other invisible parts dropped.
// Parsed with Gumbo (an HTML5 parser), so broken markup reads as a browser
// would read it. Pure; any thread.
#pragma once

#include <string>
#include <string_view>

namespace lathe::tools::web {

// baseUrl (the page's URL) makes relative links absolute.
std::string htmlToText(std::string_view html, const std::string& baseUrl);

}  // namespace lathe::tools::web
