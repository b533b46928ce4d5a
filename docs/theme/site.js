// The site's behaviour on top of mdBook's (book.toml `additional-js`); the styles it relies on are in site.css.
"use strict";

// Inline code breaks only at its spaces: each word of an inline code span that holds a hyphen (up to 30
// characters: a longer one may still break rather than push the page wider than a phone) is wrapped in a span
// that site.css keeps on one line, so an option name like `--min-severity` is never split at a hyphen.
document.querySelectorAll("main :not(pre) > code").forEach((code) => {
    if (code.children.length !== 0 || !code.textContent.includes("-")) {
        return;
    }
    const parts = code.textContent.split(/(\s+)/);
    code.textContent = "";
    for (const part of parts) {
        if (part.includes("-") && part.length <= 30 && !/\s/.test(part)) {
            const word = document.createElement("span");
            word.className = "word";
            word.textContent = part;
            code.append(word);
        } else {
            code.append(part);
        }
    }
});

// Each table cell knows its column's name, which a phone's layout shows above it.
document.querySelectorAll("main table").forEach((table) => {
    const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    table.querySelectorAll("tbody tr").forEach((row) => {
        [...row.children].forEach((cell, i) => {
            if (names[i]) {
                cell.dataset.label = names[i];
            }
        });
    });
});

// A sidebar entry without a page (a category of rules) opens and closes its list when its name is clicked.
document.addEventListener("click", (event) => {
    const label = event.target.closest(".chapter li.chapter-item > .chapter-link-wrapper > span");
    if (label) {
        label.closest("li.chapter-item").classList.toggle("expanded");
    }
});
