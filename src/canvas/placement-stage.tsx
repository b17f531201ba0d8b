// The signature editor's canvas (Konva): one page image scaled to the width it is given, and the signature
// boxes over it. Geometry arrives as fractions of the page and leaves as fractions; pixels exist only here.
// Kept fast for many boxes: the boxes have their own layer, text and the image's decoration do not listen
// for events, a box is memoised so a parent render redraws only the boxes that changed, and a drag moves
// the Konva node itself: React hears about it once, on the drop. A box that overlaps another is drawn in
// red with a warning sign; the page's shape is reported once its image has loaded, since whether two
// boxes overlap depends on it.
import { memo, useEffect, useRef, useState } from 'react';
import type Konva from 'konva';
import { Group, Image as KonvaImage, Layer, Rect, Stage, Text } from 'react-konva';
import { DEFAULT_PAGE_RATIO } from '../../machines/placement-overlap';
import { PLACEMENT_LIMITS, SIGNATURE_BOX } from '../../machines/sign-flow-draft';
import { MAX_TOP_ON_PAGE } from '../../machines/signature-placement.machine';

export type StageBox = {
  emailAddress: string;
  /** The signatory's number in the flow. */
  number: number;
  name: string;
  left: number;
  top: number;
  isSigned: boolean;
  /** Overlaps another signatory's box: the editor will not save until it moves. */
  isOverlapping: boolean;
};

export type PlacementStageProps = {
  imageUrl: string;
  /** The width the page may take, in CSS pixels. */
  width: number;
  boxes: readonly StageBox[];
  /** The box the keyboard moves: drawn as focused. */
  selectedEmail: string | null;
  /** A click on the page, at this point (fractions of the page). */
  onPageClick(x: number, y: number): void;
  onBoxClick(emailAddress: string): void;
  onDragStart(emailAddress: string): void;
  /** A box dropped with its top-left corner here (fractions of the page). */
  onDrop(emailAddress: string, left: number, top: number): void;
  onImageError(): void;
  /** The page image has loaded: its height over its width. */
  onPageMeasured(ratio: number): void;
};

const COLORS = {
  stroke: '#0f6cbd',
  fill: 'rgba(15, 108, 189, 0.14)',
  fillHover: 'rgba(15, 108, 189, 0.28)',
  signedStroke: '#107c10',
  signedFill: 'rgba(16, 124, 16, 0.14)',
  overlapStroke: '#c50f1f',
  overlapFill: 'rgba(197, 15, 31, 0.16)',
  overlapFillHover: 'rgba(197, 15, 31, 0.3)',
  text: '#242424',
} as const;

type LoadedImage = { element: HTMLImageElement; url: string };

function usePageImage(
  url: string,
  onError: () => void,
  onMeasured: (ratio: number) => void,
): LoadedImage | null {
  const [loaded, setLoaded] = useState<LoadedImage | null>(null);
  const onErrorRef = useRef(onError);
  const onMeasuredRef = useRef(onMeasured);
  useEffect(() => {
    onErrorRef.current = onError;
    onMeasuredRef.current = onMeasured;
  }, [onError, onMeasured]);
  useEffect(() => {
    let isCurrent = true;
    const element = new window.Image();
    element.onload = () => {
      if (!isCurrent) return;
      setLoaded({ element, url });
      if (element.naturalWidth > 0 && element.naturalHeight > 0) {
        onMeasuredRef.current(element.naturalHeight / element.naturalWidth);
      }
    };
    element.onerror = () => {
      if (isCurrent) onErrorRef.current();
    };
    element.src = url;
    return () => {
      isCurrent = false;
      element.onload = null;
      element.onerror = null;
    };
  }, [url]);
  return loaded?.url === url ? loaded : null;
}

type BoxNodeProps = {
  box: StageBox;
  pageWidth: number;
  pageHeight: number;
  isSelected: boolean;
  onBoxClick(emailAddress: string): void;
  onDragStart(emailAddress: string): void;
  onDrop(emailAddress: string, left: number, top: number): void;
};

const BoxNode = memo(function BoxNode({
  box,
  pageWidth,
  pageHeight,
  isSelected,
  onBoxClick,
  onDragStart,
  onDrop,
}: BoxNodeProps) {
  const rectRef = useRef<Konva.Rect>(null);
  const width = SIGNATURE_BOX.width * pageWidth;
  // Spec 001 §9: both sides are fractions of the page width, as the stamp on the signed PDF is.
  const height = SIGNATURE_BOX.height * pageWidth;
  const fontSize = Math.max(10, Math.min(16, width * 0.07));
  const isMovable = !box.isSigned;
  const fill = box.isOverlapping ? COLORS.overlapFill : box.isSigned ? COLORS.signedFill : COLORS.fill;
  const hoverFill = box.isOverlapping ? COLORS.overlapFillHover : COLORS.fillHover;
  const stroke = box.isOverlapping
    ? COLORS.overlapStroke
    : box.isSigned
      ? COLORS.signedStroke
      : COLORS.stroke;

  // Hover is drawn on the node directly: a pointer crossing 50 boxes must not render React 50 times.
  const setHover = (event: Konva.KonvaEventObject<MouseEvent>, isHovered: boolean) => {
    const rect = rectRef.current;
    if (rect) {
      rect.fill(isHovered && isMovable ? hoverFill : fill);
      rect.getLayer()?.batchDraw();
    }
    const container = event.target.getStage()?.container();
    if (container) container.style.cursor = isHovered ? (isMovable ? 'move' : 'not-allowed') : 'crosshair';
  };

  return (
    <Group
      x={box.left * pageWidth}
      y={box.top * pageHeight}
      draggable={isMovable}
      dragBoundFunc={(position) => ({
        x: Math.min(PLACEMENT_LIMITS.maxLeft * pageWidth, Math.max(0, position.x)),
        y: Math.min(MAX_TOP_ON_PAGE * pageHeight, Math.max(PLACEMENT_LIMITS.minTop * pageHeight, position.y)),
      })}
      onMouseEnter={(event) => setHover(event, true)}
      onMouseLeave={(event) => setHover(event, false)}
      onClick={(event) => {
        event.cancelBubble = true;
        onBoxClick(box.emailAddress);
      }}
      onTap={(event) => {
        event.cancelBubble = true;
        onBoxClick(box.emailAddress);
      }}
      onDragStart={() => onDragStart(box.emailAddress)}
      onDragEnd={(event) => {
        const node = event.target;
        const left = node.x() / pageWidth;
        const top = node.y() / pageHeight;
        // Back to where the props say: an accepted drop re-renders the box at its clamped position, a
        // refused one (the editor was busy) leaves it where it was.
        node.position({ x: box.left * pageWidth, y: box.top * pageHeight });
        onDrop(box.emailAddress, left, top);
      }}
    >
      <Rect
        ref={rectRef}
        width={width}
        height={height}
        fill={fill}
        stroke={stroke}
        strokeWidth={isSelected || box.isOverlapping ? 3 : 1.5}
        dash={isSelected ? [6, 3] : undefined}
        cornerRadius={4}
        perfectDrawEnabled={false}
        shadowForStrokeEnabled={false}
      />
      <Text
        text={`${box.isOverlapping ? '\u26a0 ' : ''}${box.number}. ${box.name}`}
        width={width}
        height={height}
        padding={6}
        fontSize={fontSize}
        fontFamily="Segoe UI, system-ui, sans-serif"
        fill={COLORS.text}
        wrap="word"
        ellipsis
        listening={false}
        perfectDrawEnabled={false}
      />
    </Group>
  );
});

export function PlacementStage({
  imageUrl,
  width,
  boxes,
  selectedEmail,
  onPageClick,
  onBoxClick,
  onDragStart,
  onDrop,
  onImageError,
  onPageMeasured,
}: PlacementStageProps) {
  const image = usePageImage(imageUrl, onImageError, onPageMeasured);
  const ratio = image
    ? image.element.naturalHeight / Math.max(1, image.element.naturalWidth)
    : DEFAULT_PAGE_RATIO;
  const pageWidth = Math.max(1, Math.floor(width));
  const pageHeight = Math.round(pageWidth * ratio);
  if (!image) return <div style={{ width: pageWidth, height: pageHeight }} />;

  const clickAt = (event: Konva.KonvaEventObject<MouseEvent | TouchEvent>) => {
    const point = event.target.getStage()?.getPointerPosition();
    if (point) onPageClick(point.x / pageWidth, point.y / pageHeight);
  };

  return (
    <Stage width={pageWidth} height={pageHeight} style={{ cursor: 'crosshair' }}>
      <Layer>
        <KonvaImage
          image={image.element}
          width={pageWidth}
          height={pageHeight}
          onClick={clickAt}
          onTap={clickAt}
        />
      </Layer>
      <Layer>
        {boxes.map((box) => (
          <BoxNode
            key={box.emailAddress}
            box={box}
            pageWidth={pageWidth}
            pageHeight={pageHeight}
            isSelected={box.emailAddress === selectedEmail}
            onBoxClick={onBoxClick}
            onDragStart={onDragStart}
            onDrop={onDrop}
          />
        ))}
      </Layer>
    </Stage>
  );
}
