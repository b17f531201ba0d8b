// Every text a person sees comes from the catalogs (src/i18n/{en,es,fr}.json), so a view must not carry
// words of its own: JSX text, or a string in an attribute people read or hear (a label, a title, an
// accessible name, a placeholder, an alt text). Punctuation, numbers and symbols pass; so do the product's
// name and strings that are not prose (a class name, a URL, a key).
const READ_ATTRIBUTES = new Set([
  'label',
  'title',
  'placeholder',
  'alt',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'content',
  'hint',
  'description',
]);
// Names that are the same in every language.
const ALLOWED = new Set(['Paraph']);
const WORD = /\p{L}{2,}/u;
// A catalog key handed to a component that formats it ("connections.users.loading").
const MESSAGE_ID = /^[a-z][\w-]*(\.[\w-]+)+$/i;

function isProse(text) {
  const trimmed = text.trim();
  return trimmed !== '' && WORD.test(trimmed) && !ALLOWED.has(trimmed) && !MESSAGE_ID.test(trimmed);
}

/** @type {import('eslint').Rule.RuleModule} */
export const noLiteralText = {
  meta: {
    type: 'problem',
    docs: { description: 'Text shown to people comes from the translation catalogs' },
    messages: {
      literal: 'Text "{{text}}" is shown to people: put it in src/i18n/{en,es,fr}.json and format it with react-intl.',
    },
    schema: [],
  },
  create(context) {
    const report = (node, text) =>
      context.report({ node, messageId: 'literal', data: { text: text.trim().slice(0, 40) } });
    return {
      JSXText(node) {
        if (isProse(node.value)) report(node, node.value);
      },
      JSXAttribute(node) {
        const name = typeof node.name.name === 'string' ? node.name.name : '';
        if (!READ_ATTRIBUTES.has(name) || node.value === null) return;
        if (node.value.type === 'Literal' && typeof node.value.value === 'string' && isProse(node.value.value)) {
          report(node.value, node.value.value);
        }
        if (node.value.type === 'JSXExpressionContainer') {
          const expression = node.value.expression;
          if (expression.type === 'Literal' && typeof expression.value === 'string' && isProse(expression.value)) {
            report(expression, expression.value);
          }
          if (expression.type === 'TemplateLiteral' && expression.quasis.some((quasi) => isProse(quasi.value.cooked ?? ''))) {
            report(expression, expression.quasis.map((quasi) => quasi.value.cooked ?? '').join('…'));
          }
        }
      },
    };
  },
};
