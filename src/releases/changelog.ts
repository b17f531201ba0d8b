// The release notes (/app/releases): what each version brought, newest first, in every interface language,
// since people read them in theirs. Data rather than catalog keys, so a release is one entry here.
// Spec 001 §2 fixes the range, v2.23.0 to v2.34.1 dated 2020-06-17; the text of the entries is ours.
// tests/views/releases.test.tsx keeps the newest entry equal to package.json's version, the range and its
// dates, the versions strictly descending and every change written in en, es and fr.
import type { Locale } from '../i18n/locale';

export type ReleaseChange = Readonly<Record<Locale, string>>;

export type Release = {
  /** 'v' and the semantic version, as the sidebar shows it. */
  version: string;
  /** ISO yyyy-mm-dd, formatted MMM d yyyy on the page. */
  date: string;
  changes: readonly ReleaseChange[];
};

export const CHANGELOG: readonly Release[] = [
  {
    version: 'v2.34.1',
    date: '2020-06-17',
    changes: [
      {
        en: 'The document screen shows the first page sooner: an image of the page stands in while the PDF is being drawn.',
        es: 'La pantalla del documento muestra antes la primera página: una imagen de la página ocupa su lugar mientras se dibuja el PDF.',
        fr: 'L’écran du document affiche plus vite la première page : une image de la page la remplace pendant que le PDF est dessiné.',
      },
      {
        en: 'The sign screen says when some pages of a long document could not be shown, instead of leaving them blank.',
        es: 'La pantalla de firma indica cuándo no se han podido mostrar algunas páginas de un documento largo, en lugar de dejarlas en blanco.',
        fr: 'L’écran de signature signale quand certaines pages d’un long document n’ont pas pu être affichées, au lieu de les laisser vides.',
      },
      {
        en: 'Logging out now always ends the session, whichever page you log out from.',
        es: 'Cerrar sesión ahora siempre termina la sesión, sea cual sea la página desde la que lo haga.',
        fr: 'La déconnexion met désormais toujours fin à la session, quelle que soit la page d’où vous vous déconnectez.',
      },
    ],
  },
  {
    version: 'v2.34.0',
    date: '2020-06-09',
    changes: [
      {
        en: 'Help in the sidebar: a quick guide in your language, answers to frequent questions and the support e-mail address.',
        es: 'Ayuda en la barra lateral: una guía rápida en su idioma, respuestas a las preguntas frecuentes y la dirección de correo del servicio de asistencia.',
        fr: 'Une aide dans la barre latérale : un guide rapide dans votre langue, les réponses aux questions fréquentes et l’adresse e-mail du support.',
      },
      {
        en: 'These release notes, opened from the version number in the sidebar.',
        es: 'Estas notas de la versión, que se abren desde el número de versión de la barra lateral.',
        fr: 'Ces notes de version, ouvertes depuis le numéro de version dans la barre latérale.',
      },
      {
        en: 'When something goes wrong, the error screen lets you send us a report.',
        es: 'Cuando algo falla, la pantalla de error le permite enviarnos un informe.',
        fr: 'Quand un problème survient, l’écran d’erreur vous permet de nous envoyer un rapport.',
      },
    ],
  },
  {
    version: 'v2.33.0',
    date: '2020-05-19',
    changes: [
      {
        en: 'Download a document’s audit trail as a PDF: who did what, and when.',
        es: 'Descargue el registro de auditoría de un documento en PDF: quién hizo qué y cuándo.',
        fr: 'Téléchargez la piste d’audit d’un document en PDF : qui a fait quoi, et quand.',
      },
      {
        en: 'A welcome screen on your first visit shows how documents, sign flows and help work, and offers to upload your first document.',
        es: 'Una pantalla de bienvenida en su primera visita muestra cómo funcionan los documentos, los flujos de firma y la ayuda, y le ofrece subir su primer documento.',
        fr: 'Un écran d’accueil, lors de votre première visite, présente les documents, les circuits de signature et l’aide, et vous propose de téléverser votre premier document.',
      },
      {
        en: 'Dark mode: follow your device or choose light or dark in Settings.',
        es: 'Modo oscuro: siga el de su dispositivo o elija claro u oscuro en Configuración.',
        fr: 'Mode sombre : suivez celui de votre appareil ou choisissez clair ou sombre dans les Paramètres.',
      },
    ],
  },
  {
    version: 'v2.32.0',
    date: '2020-04-28',
    changes: [
      {
        en: 'Sign your own document without a sign flow, placing the signature yourself.',
        es: 'Firme su propio documento sin flujo de firma, colocando usted mismo la firma.',
        fr: 'Signez votre propre document sans circuit de signature, en plaçant vous-même la signature.',
      },
      {
        en: 'Settings: choose your language and your usual place of signing, which the sign screen then fills in for you.',
        es: 'Configuración: elija su idioma y su lugar de firma habitual, que la pantalla de firma rellenará por usted.',
        fr: 'Paramètres : choisissez votre langue et votre lieu de signature habituel, que l’écran de signature remplit ensuite pour vous.',
      },
      {
        en: 'The locate-me button fills in the place of signing from your browser’s position.',
        es: 'El botón de localización rellena el lugar de la firma a partir de la posición de su navegador.',
        fr: 'Le bouton de localisation remplit le lieu de signature à partir de la position de votre navigateur.',
      },
    ],
  },
  {
    version: 'v2.31.0',
    date: '2020-04-07',
    changes: [
      {
        en: 'Sign documents with your smart card: choose the card, give the place of signing and, if you wish, a reason.',
        es: 'Firme documentos con su tarjeta inteligente: elija la tarjeta, indique el lugar de la firma y, si lo desea, un motivo.',
        fr: 'Signez des documents avec votre carte à puce : choisissez la carte, indiquez le lieu de signature et, si vous le souhaitez, un motif.',
      },
      {
        en: 'Confirm each signature in your identity app, from a link or a QR code; if no notification arrives, the confirmation can be sent again.',
        es: 'Confirme cada firma en su aplicación de identidad, desde un enlace o un código QR; si no le llega ninguna notificación, puede volver a enviar la confirmación.',
        fr: 'Confirmez chaque signature dans votre application d’identité, depuis un lien ou un QR code ; si aucune notification n’arrive, la confirmation peut être renvoyée.',
      },
      {
        en: 'Signed PDFs carry a digital signature for every signer and a visible stamp where the signature was placed; earlier signatures stay valid.',
        es: 'Los PDF firmados llevan una firma digital por cada firmante y un sello visible donde se colocó la firma; las firmas anteriores siguen siendo válidas.',
        fr: 'Les PDF signés portent une signature numérique par signataire et un cachet visible à l’endroit choisi ; les signatures précédentes restent valides.',
      },
    ],
  },
  {
    version: 'v2.30.0',
    date: '2020-03-10',
    changes: [
      {
        en: 'In an ordered flow signatories sign one after the other; a standard flow can be complete once a minimum number of them have signed.',
        es: 'En un flujo ordenado los firmantes firman uno tras otro; un flujo estándar puede completarse cuando haya firmado un número mínimo de ellos.',
        fr: 'Dans un circuit ordonné, les signataires signent l’un après l’autre ; un circuit standard peut s’achever dès qu’un nombre minimum d’entre eux a signé.',
      },
      {
        en: 'Place each signature on its page with the mouse or the keyboard, or add a signature page at the start, after a given page or at the end.',
        es: 'Coloque cada firma en su página con el ratón o con el teclado, o añada una página de firmas al principio, después de una página concreta o al final.',
        fr: 'Placez chaque signature sur sa page à la souris ou au clavier, ou ajoutez une page de signatures au début, après une page donnée ou à la fin.',
      },
      {
        en: 'Reviewers approve or reject before anyone signs; signatories can refuse and say why; the owner can edit or cancel the flow.',
        es: 'Los revisores aprueban o rechazan antes de que nadie firme; los firmantes pueden negarse a firmar e indicar el motivo; el propietario puede modificar o cancelar el flujo.',
        fr: 'Les relecteurs approuvent ou rejettent avant toute signature ; les signataires peuvent refuser en disant pourquoi ; le propriétaire peut modifier ou annuler le circuit.',
      },
    ],
  },
  {
    version: 'v2.29.0',
    date: '2020-02-11',
    changes: [
      {
        en: 'Start a sign flow on an uploaded document: add signatories and reviewers from your connections, your sign groups or by e-mail address, with a comment.',
        es: 'Inicie un flujo de firma en un documento subido: añada firmantes y revisores de sus contactos, de sus grupos de firma o por dirección de correo, con un comentario.',
        fr: 'Lancez un circuit de signature sur un document téléversé : ajoutez signataires et relecteurs depuis vos contacts, vos groupes de signature ou par adresse e-mail, avec un commentaire.',
      },
      {
        en: 'People without an account are invited by e-mail and find the document as soon as they have signed up.',
        es: 'Las personas sin cuenta reciben una invitación por correo y encuentran el documento en cuanto se registran.',
        fr: 'Les personnes sans compte sont invitées par e-mail et trouvent le document dès leur inscription.',
      },
      {
        en: 'The To Do badge in the sidebar counts the sign flows waiting for you.',
        es: 'El indicador de Pendientes en la barra lateral cuenta los flujos de firma que le esperan.',
        fr: 'La pastille À faire de la barre latérale compte les circuits de signature qui vous attendent.',
      },
    ],
  },
  {
    version: 'v2.28.0',
    date: '2020-01-14',
    changes: [
      {
        en: 'Connections: ask someone to connect by e-mail address, then accept, refuse or cancel requests; the sidebar shows how many are waiting for you.',
        es: 'Contactos: pida a alguien que se conecte con usted por su dirección de correo y acepte, rechace o cancele solicitudes; la barra lateral muestra cuántas le esperan.',
        fr: 'Contacts : demandez à quelqu’un de se connecter par son adresse e-mail, puis acceptez, refusez ou annulez les demandes ; la barre latérale indique combien vous attendent.',
      },
      {
        en: 'Sign groups: give a name to a set of your connections to invite them together.',
        es: 'Grupos de firma: dé un nombre a un conjunto de sus contactos para invitarlos a la vez.',
        fr: 'Groupes de signature : donnez un nom à un ensemble de vos contacts pour les inviter ensemble.',
      },
      {
        en: 'Someone who is not yet one of your connections is found only by their whole e-mail address, so nobody can browse the list of accounts.',
        es: 'A quien aún no es uno de sus contactos solo se le encuentra por su dirección de correo completa, de modo que nadie puede recorrer la lista de cuentas.',
        fr: 'Une personne qui n’est pas encore l’un de vos contacts ne se trouve que par son adresse e-mail complète : personne ne peut parcourir la liste des comptes.',
      },
    ],
  },
  {
    version: 'v2.27.0',
    date: '2019-11-26',
    changes: [
      {
        en: 'See a document’s details and participants in a panel beside the list; on a phone, tapping a document opens its details.',
        es: 'Vea los detalles y participantes de un documento en un panel junto a la lista; en un teléfono, al tocar un documento se abren sus detalles.',
        fr: 'Voyez les détails et les participants d’un document dans un panneau à côté de la liste ; sur un téléphone, toucher un document ouvre ses détails.',
      },
      {
        en: 'Documents are deleted automatically at the end of the retention period; the list can show the deletion date.',
        es: 'Los documentos se eliminan automáticamente al final del periodo de conservación; la lista puede mostrar la fecha de eliminación.',
        fr: 'Les documents sont supprimés automatiquement à la fin de la durée de conservation ; la liste peut afficher la date de suppression.',
      },
      {
        en: 'A document that was just uploaded says it is still being processed instead of showing an empty viewer.',
        es: 'Un documento recién subido indica que aún se está procesando en lugar de mostrar un visor vacío.',
        fr: 'Un document tout juste téléversé indique qu’il est encore en cours de traitement au lieu d’afficher une visionneuse vide.',
      },
    ],
  },
  {
    version: 'v2.26.0',
    date: '2019-10-29',
    changes: [
      {
        en: 'Archive the documents you no longer need to see; they wait for you in the Archive.',
        es: 'Archive los documentos que ya no necesita ver; le esperan en el Archivo.',
        fr: 'Archivez les documents que vous n’avez plus besoin de voir ; ils vous attendent dans les Archives.',
      },
      {
        en: 'Select several documents to archive, delete or download them at once.',
        es: 'Seleccione varios documentos para archivarlos, eliminarlos o descargarlos a la vez.',
        fr: 'Sélectionnez plusieurs documents pour les archiver, les supprimer ou les télécharger en une fois.',
      },
      {
        en: 'Downloading a selection that mixes signed and unsigned documents asks first, and downloads only the signed ones.',
        es: 'Descargar una selección que mezcla documentos firmados y sin firmar pide confirmación y descarga solo los firmados.',
        fr: 'Télécharger une sélection qui mêle documents signés et non signés demande d’abord confirmation, et ne télécharge que les documents signés.',
      },
    ],
  },
  {
    version: 'v2.25.0',
    date: '2019-10-01',
    changes: [
      {
        en: 'Document lists show 20 documents per page, with first, previous, next and last page buttons.',
        es: 'Las listas de documentos muestran 20 documentos por página, con botones de primera, anterior, siguiente y última página.',
        fr: 'Les listes de documentos affichent 20 documents par page, avec des boutons première, précédente, suivante et dernière page.',
      },
      {
        en: 'Lists for To Do, In Progress, Done, Failed and Uploaded documents, with search and sorting by date.',
        es: 'Listas de documentos Pendientes, En curso, Completados, Fallidos y Subidos, con búsqueda y ordenación por fecha.',
        fr: 'Des listes À faire, En cours, Terminés, En échec et Téléversés, avec recherche et tri par date.',
      },
      {
        en: 'Approve, reject, refuse or cancel straight from the list.',
        es: 'Apruebe, rechace, niéguese a firmar o cancele directamente desde la lista.',
        fr: 'Approuvez, rejetez, refusez ou annulez directement depuis la liste.',
      },
    ],
  },
  {
    version: 'v2.24.0',
    date: '2019-09-03',
    changes: [
      {
        en: 'Paraph in English, Spanish and French: choose from the sidebar, and your choice is kept in your profile.',
        es: 'Paraph en inglés, español y francés: elija desde la barra lateral, y su elección se guarda en su perfil.',
        fr: 'Paraph en anglais, espagnol et français : choisissez depuis la barre latérale, et votre choix est conservé dans votre profil.',
      },
      {
        en: 'The viewer shows the PDF on large screens and the page images on phones.',
        es: 'El visor muestra el PDF en pantallas grandes y las imágenes de las páginas en teléfonos.',
        fr: 'La visionneuse affiche le PDF sur les grands écrans et les images des pages sur les téléphones.',
      },
    ],
  },
  {
    version: 'v2.23.0',
    date: '2019-08-06',
    changes: [
      {
        en: 'Sign in with your e-mail address and password.',
        es: 'Inicie sesión con su dirección de correo y su contraseña.',
        fr: 'Connectez-vous avec votre adresse e-mail et votre mot de passe.',
      },
      {
        en: 'Upload a PDF and follow its progress; a file that is not a PDF, is encrypted or is empty is refused.',
        es: 'Suba un PDF y siga su progreso; un archivo que no es un PDF, está cifrado o está vacío se rechaza.',
        fr: 'Téléversez un PDF et suivez sa progression ; un fichier qui n’est pas un PDF, qui est chiffré ou vide est refusé.',
      },
      {
        en: 'All your documents in one list with their status, and a viewer to open them.',
        es: 'Todos sus documentos en una lista con su estado, y un visor para abrirlos.',
        fr: 'Tous vos documents dans une liste avec leur état, et une visionneuse pour les ouvrir.',
      },
    ],
  },
];
