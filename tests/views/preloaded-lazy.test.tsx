// Code loaded on demand without suspending: the fallback until the module arrives, at once when it is
// already here, and a failed load reaching the error boundary like React.lazy's would.
import { Component, type ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loader, preloadedLazy } from '../../src/views/preloaded-lazy';

type Module = { Greeting: (props: { name: string }) => ReactNode };
const MODULE: Module = { Greeting: ({ name }) => <p>Hello {name}</p> };

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error.message : 'error' };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

describe('preloadedLazy', () => {
  it('shows the fallback until the module arrives, then the component', async () => {
    let resolve: (module: Module) => void = () => {};
    const load = loader(() => new Promise<Module>((done) => (resolve = done)));
    const Greeting = preloadedLazy(load, (module) => module.Greeting, <p>Loading…</p>);
    render(<Greeting name="Ada" />);
    expect(screen.getByText('Loading…')).toBeVisible();
    resolve(MODULE);
    expect(await screen.findByText('Hello Ada')).toBeVisible();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('renders at once, with no fallback, when the module is already loaded', async () => {
    const load = loader(async () => MODULE);
    await load();
    const Greeting = preloadedLazy(load, (module) => module.Greeting, <p>Loading…</p>);
    render(<Greeting name="Bob" />);
    expect(screen.getByText('Hello Bob')).toBeVisible();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('hands a failed load to the error boundary, and lets a later render try again', async () => {
    let attempts = 0;
    const load = loader(async (): Promise<Module> => {
      attempts += 1;
      throw new Error('chunk missing');
    });
    const Greeting = preloadedLazy(load, (module) => module.Greeting);
    render(
      <Boundary>
        <Greeting name="Carol" />
      </Boundary>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe('chunk missing');
    await load().catch(() => {});
    expect(attempts).toBe(2);
  });
});
