// The lint rule that keeps words out of the views: what it flags and what it lets through.
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import { noLiteralText } from '../../scripts/eslint/no-literal-text.js';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
});

tester.run('no-literal-text', noLiteralText, {
  valid: [
    { code: 'const a = <p>{intl.formatMessage({ id: "documents.title" })}</p>;' },
    { code: 'const a = <span> · </span>;' },
    { code: 'const a = <span>{count} / 20</span>;' },
    { code: 'const a = <b>Paraph</b>;' },
    { code: 'const a = <ListLoading label="connections.users.loading" />;' },
    { code: 'const a = <div className="page-title" data-testid="row" />;' },
    { code: 'const a = <input placeholder={intl.formatMessage({ id: "search.placeholder" })} />;' },
  ],
  invalid: [
    { code: 'const a = <p>Documents could not be loaded</p>;', errors: [{ messageId: 'literal' }] },
    { code: 'const a = <Button aria-label="Close" />;', errors: [{ messageId: 'literal' }] },
    { code: 'const a = <img alt={"Page one"} />;', errors: [{ messageId: 'literal' }] },
    { code: 'const a = <Field label={`Name ${n}`} />;', errors: [{ messageId: 'literal' }] },
    { code: 'const a = <Input placeholder="Search" />;', errors: [{ messageId: 'literal' }] },
    { code: 'const a = <Tooltip content="Signé" relationship="label" />;', errors: [{ messageId: 'literal' }] },
  ],
});
