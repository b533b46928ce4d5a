//! A strict reader of the XML [`super::render`] writes, for the tests: elements, attributes and text, the five
//! entities, nothing else (no comments, CDATA or character references). It refuses what an XML 1.0 parser would
//! refuse in this output (a raw `<` or `&` in text or an attribute, a character XML does not allow, tags that do
//! not match) and what would act on a log that shows the report (any control character but the line break).

/// An element: its name, attributes in order, text (decoded) and children.
#[derive(Debug, Default)]
pub struct Element {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The root element of `xml`, after its `<?xml …?>` declaration.
pub fn parse(xml: &str) -> Result<Element, String> {
    if let Some(bad) =
        xml.chars().find(|&c| crate::source::escape::acts(c) && c != '\n' || c == '\u{fffe}' || c == '\u{ffff}')
    {
        return Err(format!("the character U+{:04X} is not allowed", bad as u32));
    }
    let rest = xml.strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n").ok_or("no XML declaration")?;
    let (root, rest) = element(rest.trim_start())?;
    if !rest.trim().is_empty() {
        return Err(format!("text after the root: {rest:?}"));
    }
    Ok(root)
}

fn element(text: &str) -> Result<(Element, &str), String> {
    let text = text.strip_prefix('<').ok_or_else(|| format!("no element at {text:?}"))?;
    let end = text.find(|c: char| c.is_whitespace() || c == '>' || c == '/').ok_or("an unended tag")?;
    let mut element = Element { name: text[..end].to_string(), ..Element::default() };
    let mut rest = text[end..].trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("/>") {
            return Ok((element, after));
        }
        if let Some(after) = rest.strip_prefix('>') {
            rest = after;
            break;
        }
        let (name, after) = rest.split_once("=\"").ok_or_else(|| format!("a bad attribute at {rest:?}"))?;
        let (value, after) = after.split_once('"').ok_or("an unended attribute")?;
        if value.contains('<') || value.contains('\n') {
            return Err(format!("a raw `<` or line break in attribute {name}"));
        }
        element.attributes.push((name.to_string(), decode(value)?));
        rest = after.trim_start();
    }
    loop {
        let open = rest.find('<').ok_or("an unclosed element")?;
        element.text.push_str(&decode(&rest[..open])?);
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("</") {
            let after = after.strip_prefix(element.name.as_str()).and_then(|a| a.strip_prefix('>'));
            let after = after.ok_or_else(|| format!("`</{}>` expected at {rest:?}", element.name))?;
            return Ok((element, after));
        }
        let (child, after) = self::element(rest)?;
        element.children.push(child);
        rest = after;
    }
}

fn decode(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let (entity, after) = rest[amp + 1..].split_once(';').ok_or("a raw `&`")?;
        out.push(match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => return Err(format!("an unknown entity `&{entity};`")),
        });
        rest = after;
    }
    out.push_str(rest);
    Ok(out)
}
