// Inline code breaks only at its spaces: each word of an inline code span that holds a hyphen is wrapped in a
// span that site.css keeps on one line, so an option name like `--min-severity` is never split at a hyphen.
"use strict";
document.querySelectorAll("main :not(pre) > code").forEach((code) => {
    if (code.children.length !== 0 || !code.textContent.includes("-")) {
        return;
    }
    const parts = code.textContent.split(/(\s+)/);
    code.textContent = "";
    for (const part of parts) {
        if (part.includes("-") && !/\s/.test(part)) {
            const word = document.createElement("span");
            word.className = "word";
            word.textContent = part;
            code.append(word);
        } else {
            code.append(part);
        }
    }
});

// A sidebar entry without a page (a category of rules) opens and closes its list when its name is clicked.
document.addEventListener("click", (event) => {
    const label = event.target.closest(".chapter li.chapter-item > .chapter-link-wrapper > span");
    if (label) {
        label.closest("li.chapter-item").classList.toggle("expanded");
    }
});
