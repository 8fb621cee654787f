-- A bytepair-widget shortcode for Quarto: a <bytepair-widget> element (docs/EMBED.md).
--
-- In _quarto.yml (or a page's front matter), where the playground is published:
--
--   bytepair-widget-js: https://example.org/bytepair/widget.js
--
-- In a page:
--
--   {{< bytepair-widget train text="low lower newest widest" v="300" lang="fa" >}}
--
-- The first argument is the view (train, tokenize, compare, steps, chat, report); every key="value"
-- becomes an attribute of the element, with the names of the playground's share links (tok, v, p,
-- t, src, metric, ...), plus text, lang, theme and height. A shortcode is one line: write a line
-- break inside a value (Compare's text: one "name | text" line per language) as \n. The page gets
-- one <script type="module"> for the widget module. HTML output only; elsewhere, nothing.

local VIEWS = { train = true, tokenize = true, compare = true, steps = true, chat = true, report = true }

local function escape(s)
  return (s:gsub("&", "&amp;"):gsub('"', "&quot;"):gsub("<", "&lt;"):gsub(">", "&gt;"))
end

local function text_of(value)
  return pandoc.utils.stringify(value)
end

local script_added = false

local function widget(args, kwargs, meta, raw_args, context)
  if not quarto.doc.is_format("html") then
    return pandoc.Null()
  end
  local view = args[1] and text_of(args[1]) or ""
  if not VIEWS[view] then
    error("bytepair-widget: the first argument is the view, one of train, tokenize, compare, steps, chat, report; got '" .. view .. "'")
  end
  local src = meta["bytepair-widget-js"] and text_of(meta["bytepair-widget-js"]) or ""
  if src == "" then
    error("bytepair-widget: set bytepair-widget-js: <the address of widget.js> in _quarto.yml or the page's front matter")
  end
  if not script_added then
    quarto.doc.include_text("in-header", '<script type="module" src="' .. escape(src) .. '"></script>')
    script_added = true
  end
  local names = {}
  for name, _ in pairs(kwargs) do
    table.insert(names, name)
  end
  table.sort(names) -- (the same page for the same source)
  local attrs = { 'view="' .. view .. '"' }
  for _, name in ipairs(names) do
    local value = text_of(kwargs[name]):gsub("\\n", "\n")
    table.insert(attrs, name .. '="' .. escape(value) .. '"')
  end
  local markup = "<div><bytepair-widget " .. table.concat(attrs, " ") .. "></bytepair-widget></div>"
  if context == "block" then
    return pandoc.RawBlock("html", markup)
  end
  return pandoc.RawInline("html", markup)
end

return { ["bytepair-widget"] = widget }
